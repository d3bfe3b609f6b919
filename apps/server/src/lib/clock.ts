/** Services read time through this so tests can move it (token expiry, session expiry). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

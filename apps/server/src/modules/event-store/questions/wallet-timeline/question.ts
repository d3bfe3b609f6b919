/**
 * A wallet's sessions as a timeline (docs/wallets.md, "The wallet page"): its latest sessions (those with
 * an event carrying it, by their latest such event), and every event of each, whatever it carries.
 */

/** At most this many events in all (the latest sessions' first ones are kept). */
export const TIMELINE_EVENTS = 2000;

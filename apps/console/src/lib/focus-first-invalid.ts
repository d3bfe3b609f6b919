/**
 * After a refused submit, moves focus to the form's first field marked invalid once the render that marks
 * it has run: a screen reader then reads that field's label and its error (aria-describedby, as `Input`
 * links them), and a keyboard user is where the fix goes. Without it, focus stays on the submit button
 * and the errors that appeared are announced to no one (WCAG 3.3.1).
 */
export function focusFirstInvalid(form: HTMLFormElement): void {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

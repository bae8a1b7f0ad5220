// A result that appears after a button press (Check values, Preview push) gets the focus, so
// a phone shows it rather than leaving it below the fold, and a screen reader reads it (the
// region is also aria-live for results that arrive while typing).

export function showResult(region) {
  region.scrollIntoView({ block: 'start', behavior: 'instant' });
  region.focus({ preventScroll: true });
}

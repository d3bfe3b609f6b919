/**
 * What a text's colour contrast depends on, read in the page before axe runs, so that axe's `color-contrast`
 * rule checks each combination once per test worker instead of every identical row and every repeated shell on
 * every screen (ADR 162). Runs inside the page (`frame.evaluate`): it must not use anything from outside itself.
 *
 * A text's signature holds its own colour, size, weight, shadow and stroke, and the paint of every element from
 * it up to the root (background colour and image, opacity, blending, filters, masks), so two texts with the same
 * signature are the same computation for axe. What the DOM chain cannot show is never cached: a painted box (a
 * background, an image or svg, a pseudo-element's background) overlapping the text that is not its ancestor,
 * anything when the document has a shadow root. Those texts are checked every time.
 */
export type TextCounts = {
  /** How many texts the document shows, how many of them are new, how many are never cached. */
  texts: number;
  fresh: number;
  uncached: number;
};

declare global {
  interface Window {
    /** The texts `readTextSignatures` chose for axe, and the signature of each cacheable text. */
    __contrastTexts?: { checked: Element[]; signatureOf: Map<Element, string> };
  }
}

/** Reads every text's signature and keeps, in `window.__contrastTexts`, those not among `known`. */
export function readTextSignatures(known: string[]): TextCounts {
  const knownSignatures = new Set(known);
  const transparent = 'rgba(0, 0, 0, 0)';
  const paintOf = (style: CSSStyleDeclaration) =>
    [
      style.backgroundColor,
      style.backgroundImage,
      style.opacity,
      style.mixBlendMode,
      style.filter,
      style.backdropFilter,
      style.backgroundBlendMode,
      style.backgroundClip,
      style.maskImage,
      style.visibility,
    ].join(' ');
  const neutralPaint = paintOf({
    backgroundColor: transparent,
    backgroundImage: 'none',
    opacity: '1',
    mixBlendMode: 'normal',
    filter: 'none',
    backdropFilter: 'none',
    backgroundBlendMode: 'normal',
    backgroundClip: 'border-box',
    maskImage: 'none',
    visibility: 'visible',
  } as CSSStyleDeclaration);

  type Rect = { left: number; top: number; right: number; bottom: number };
  type Painted = { rect: Rect; owner: Element; isPseudo: boolean };
  const painted: Painted[] = [];
  const chains = new Map<Element, { paint: string; hasImage: boolean; isPlain: boolean }>();
  const replaced = new Set(['IMG', 'SVG', 'svg', 'VIDEO', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'PICTURE']);
  const isPositioned = (style: CSSStyleDeclaration) =>
    style.position === 'absolute' || style.position === 'fixed' || style.position === 'sticky';

  // One computed style per element, read once: the paint chain of each (only the layers that paint, from the
  // element up, joined), and the painted boxes the chain of some other text could lie on.
  const elements = [...document.querySelectorAll('*')];
  let hasShadowRoot = false;
  for (const element of elements) {
    if (element.shadowRoot) hasShadowRoot = true;
    const style = getComputedStyle(element);
    const paint = paintOf(style);
    const parent = element.parentElement ? chains.get(element.parentElement) : undefined;
    // An opaque background hides a background image under it, unless it or an ancestor is composited with
    // what lies under it (opacity, blending, a filter or a mask): axe cannot tell a colour through an image.
    const isPlain =
      (parent?.isPlain ?? true) &&
      style.opacity === '1' &&
      style.mixBlendMode === 'normal' &&
      style.filter === 'none' &&
      style.backdropFilter === 'none' &&
      style.maskImage === 'none';
    const isOpaque = !/^rgba|\/|transparent|color-mix/.test(style.backgroundColor);
    const hasImage =
      style.backgroundImage !== 'none' || ((parent?.hasImage ?? false) && !(isOpaque && isPlain));
    chains.set(element, {
      paint: paint === neutralPaint ? (parent?.paint ?? '') : `${paint} | ${parent?.paint ?? ''}`,
      hasImage,
      isPlain,
    });
    const paints =
      style.backgroundColor !== transparent ||
      style.backgroundImage !== 'none' ||
      replaced.has(element.tagName);
    if (paints) {
      painted.push({ rect: element.getBoundingClientRect(), owner: element, isPseudo: false });
    }
    for (const pseudo of ['::before', '::after']) {
      const box = getComputedStyle(element, pseudo);
      if (box.content === 'none' || box.content === 'normal') continue;
      if (box.backgroundColor === transparent && box.backgroundImage === 'none') continue;
      // Where a positioned pseudo-element lands is its containing block's business: take the widest guess.
      const area = isPositioned(box) ? document.documentElement : element;
      painted.push({ rect: area.getBoundingClientRect(), owner: element, isPseudo: true });
    }
  }

  const overlaps = (a: Rect, b: Rect) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  // A painted box that is not the text's ancestor (whose paint is in its signature) but overlaps its text may
  // be what axe finds under or over it: such a text is not cached.
  const liesOnOther = (element: Element, rect: Rect) =>
    painted.some(
      ({ rect: box, owner, isPseudo }) => overlaps(rect, box) && (isPseudo || !owner.contains(element)),
    );

  // A text's own text nodes as laid out, or a form control's box (axe checks the value a control shows):
  // none means not rendered (display: none), which axe does not check either.
  const nonTextInputs = new Set(['hidden', 'range', 'color', 'checkbox', 'radio', 'image']);
  const isTextControl = (element: Element) =>
    element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLSelectElement && element.options.length > 0) ||
    (element instanceof HTMLInputElement && !nonTextInputs.has(element.type));
  const textRects = (element: Element) => {
    if (isTextControl(element)) return [...element.getClientRects()];
    const rects: Rect[] = [];
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      rects.push(...range.getClientRects());
    }
    return rects;
  };
  const signatureOf = new Map<Element, string>();
  const checked: Element[] = [];
  let texts = 0;
  let uncached = 0;
  for (const element of elements) {
    const rects = textRects(element);
    if (rects.length === 0) continue;
    texts += 1;
    const style = getComputedStyle(element);
    const chain = chains.get(element);
    const isDisabled = element.matches(':disabled') || element.closest('[aria-disabled="true"]') !== null;
    const signature = [
      isTextControl(element) ? element.tagName : '',
      style.color,
      style.fontSize,
      style.fontWeight,
      style.textShadow,
      style.webkitTextStrokeWidth,
      style.webkitTextStrokeColor,
      style.webkitTextFillColor,
      isDisabled,
      window === window.top,
      chain?.paint,
    ].join(' ; ');
    const isUncached = hasShadowRoot || !chain || rects.some((rect) => liesOnOther(element, rect));
    if (isUncached) uncached += 1;
    else signatureOf.set(element, chain.hasImage ? `on an image ; ${signature}` : signature);
    if (isUncached || !knownSignatures.has(signatureOf.get(element) ?? '')) checked.push(element);
  }
  window.__contrastTexts = { checked, signatureOf };
  return { texts, fresh: checked.length - uncached, uncached };
}

export type ChosenTextsResult = {
  /** Each text below WCAG AA, as "selector: what to fix". */
  failures: string[];
  /** The signatures settled by this run: contrasts axe measured and passed, texts on an image it could not tell. */
  passed: string[];
};

/**
 * Runs axe's `color-contrast` rule on the texts `readTextSignatures` chose (axe checks each included element
 * with what is inside it, so an included ancestor's subtree covers its included descendants). Runs inside the
 * page, once axe is loaded into it.
 */
export async function checkChosenTexts(): Promise<ChosenTextsResult> {
  const chosen = window.__contrastTexts;
  if (!chosen || chosen.checked.length === 0) return { failures: [], passed: [] };
  const included = new Set(chosen.checked);
  const isInsideIncluded = (element: Element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (included.has(parent)) return true;
    }
    return false;
  };
  const roots = chosen.checked.filter((element) => !isInsideIncluded(element));
  const { axe } = window as unknown as { axe: typeof import('axe-core') };
  const results = await axe.run(
    { include: roots },
    {
      runOnly: { type: 'rule', values: ['color-contrast'] },
      resultTypes: ['violations', 'passes', 'incomplete'],
      // Selectors are worked out for the failures alone, below: for every passing text they were most of
      // axe's time on a large screen (axe-core's API, "Performance").
      selectors: false,
      elementRef: true,
      iframes: false,
    },
  );
  const nodesOf = (groups: typeof results.violations) =>
    groups.flatMap((group) => group.nodes).filter((node) => node.element !== undefined);
  const signaturesOf = (groups: typeof results.violations) =>
    new Set(nodesOf(groups).map((node) => node.element && chosen.signatureOf.get(node.element)));
  const failed = signaturesOf(results.violations);
  const undecided = signaturesOf(results.incomplete);
  // What axe found is recorded only when it holds for any text of the signature: a contrast it measured (not
  // a text it passed as hidden, off screen or clipped), or, on a background image with nothing else over or
  // under it, the image itself (axe then cannot tell, wherever the text lies on it).
  const passed = new Set<string>();
  for (const node of nodesOf(results.passes)) {
    const signature = node.element && chosen.signatureOf.get(node.element);
    if (signature && !failed.has(signature) && !undecided.has(signature) && !node.any[0]?.data?.messageKey) {
      passed.add(signature);
    }
  }
  const imageAnswers = new Set(['bgImage', 'bgGradient']);
  for (const node of nodesOf(results.incomplete)) {
    const signature = node.element && chosen.signatureOf.get(node.element);
    if (
      signature?.startsWith('on an image ; ') &&
      !failed.has(signature) &&
      imageAnswers.has(node.any[0]?.data?.messageKey)
    ) {
      passed.add(signature);
    }
  }
  const failing = nodesOf(results.violations).flatMap((node) => (node.element ? [node.element] : []));
  if (failing.length === 0) return { failures: [], passed: [...passed] };
  // Only when something fails: the same rule on the failing texts again, with their selectors this time.
  const described = await axe.run(
    { include: failing },
    { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'], iframes: false },
  );
  // Should the second run not say the same, the first run's failures still fail the check, named by tag.
  const failures = (described.violations.length > 0 ? described : results).violations.flatMap((violation) =>
    violation.nodes.map((node) =>
      `${node.target?.join(' ') || node.element?.tagName.toLowerCase()}: ${node.failureSummary ?? ''}`.replace(
        /\s+/g,
        ' ',
      ),
    ),
  );
  return { failures, passed: [...passed] };
}

"""What the accessibility steps measure on the page as it is: axe-core's serious and critical
violations, the contrast of text axe leaves undecided, and the focus ring's contrast against
what is behind it (WCAG 2.2 AA: 3:1 for a focus indicator), which axe does not check.
steps_a11y.py decides where to measure."""

import json

from harness import Keys

# axe-core runs WCAG 2.2's rules (target-size among them) only when asked by tag; its default
# rule set (what `axe.run()` and axe-selenium-python run) has rules no tag subset selects, such
# as autocomplete-valid. One run does both: the default set, plus every rule of these tags.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_RULES_OF_TAGS = "return axe.getRules(arguments[0]).map((rule) => rule.ruleId)"
FAILING_IMPACTS = ("serious", "critical")
FOCUS_TABS = 8  # how many Tab presses per view the focus-ring check measures
FOCUS_CONTRAST = 3.0


def set_scheme(p, scheme):
    p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})
    actual = p.js("return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'")
    assert actual == scheme, f"asked for {scheme}, the page sees {actual}"


def axe_violations(p):
    """axe-core's serious and critical violations on the page as it is, one line each, plus
    text whose contrast axe could not decide (`undecided_contrast`)."""
    from axe_selenium_python import Axe  # installed by run.sh; imported here so the core steps run without it
    axe = Axe(p.driver)
    if not p.js("return typeof window.axe === 'object'"):
        axe.inject()
    tagged = p.js(AXE_RULES_OF_TAGS, AXE_TAGS)
    assert len(tagged) > 50, f"axe knows only {len(tagged)} rules of {AXE_TAGS}"
    results = axe.run(options=json.dumps({
        "resultTypes": ["violations", "incomplete"], "rules": {rule: {"enabled": True} for rule in tagged}}))
    lines = []
    for violation in results["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    for result in results["incomplete"]:
        if result["id"] == "color-contrast":
            lines += undecided_contrast(p, result["nodes"])
    return lines


def undecided_contrast(p, nodes):
    """axe leaves text over a dialog's backdrop, in a scrolled box or under an overlapping
    element undecided; this measures it against the first opaque background behind it."""
    lines = []
    for node in nodes:
        selector = node["target"][0]
        data = (node["any"] or [{}])[0].get("data") or {}
        needed = float(str(data.get("expectedContrastRatio", "4.5")).split(":")[0])
        colours = p.js(COLOURS_PROBE, selector) if isinstance(selector, str) else None
        if colours is None:
            lines.append(f"color-contrast (undecided): cannot measure {node['target']}")
            continue
        ratio = contrast(colours["text"], colours["background"])
        if ratio < needed:
            lines.append(f"color-contrast (undecided by axe): {colours['text']} on {colours['background']} "
                         f"is {ratio:.2f}:1, needs {needed}:1 at {selector}")
    return lines


# Page functions: the first opaque background of an element or its ancestors (the page's
# colours are opaque or fully transparent); the text colour and background of the element
# `arguments[0]` names; the focused element's outline and what is behind it (the outline is
# drawn outside the element, so its own background does not count). Colours come back as
# rgb()/rgba() strings from getComputedStyle.
OPAQUE_BACKGROUND = """
const opaqueBackground = (element) => {
  for (let node = element; node; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (!/rgba\\(.*, 0\\)$/.test(colour) && colour !== 'transparent') return colour;
  }
  return 'rgb(255, 255, 255)';
};
"""
COLOURS_PROBE = OPAQUE_BACKGROUND + """
const el = document.querySelector(arguments[0]);
return el && { text: getComputedStyle(el).color, background: opaqueBackground(el) };
"""
FOCUS_PROBE = OPAQUE_BACKGROUND + """
const el = document.activeElement;
if (!el || el === document.body) return null;
const style = getComputedStyle(el);
return {
  element: el.outerHTML.slice(0, 80), outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
  outline: style.outlineColor, background: opaqueBackground(el.parentElement),
};
"""


def channels(colour):
    """Red, green and blue (0–255) of `rgb(…)`, `rgba(…)` or `color(srgb r g b)` (0–1, what
    Chromium gives for color-mix())."""
    inside = colour[colour.index("(") + 1:colour.index(")")].removeprefix("srgb ")
    numbers = [float(n) for n in inside.replace("/", ",").replace(" ", ",").split(",") if n][:3]
    return [n * 255 for n in numbers] if colour.startswith("color(") else numbers


def luminance(colour):
    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def focus_ring_problem(probe):
    """What is wrong with one focused element's outline (a `FOCUS_PROBE` result), or None."""
    if probe["outlineStyle"] == "none" or probe["outlineWidth"] < 2:
        return f"no visible focus outline on {probe['element']}"
    ratio = contrast(probe["outline"], probe["background"])
    if ratio < FOCUS_CONTRAST:
        return (f"focus outline {probe['outline']} on {probe['background']} is {ratio:.2f}:1 "
                f"(needs {FOCUS_CONTRAST}:1) on {probe['element']}")
    return None


def focus_ring_problems(p):
    """Tabs through the view; every focused element needs a 2px+ outline at 3:1 against its backdrop."""
    problems = []
    seen = set()
    for _ in range(FOCUS_TABS):
        p.driver.switch_to.active_element.send_keys(Keys.TAB)
        probe = p.js(FOCUS_PROBE)
        if probe is None or probe["element"] in seen:
            continue
        seen.add(probe["element"])
        problem = focus_ring_problem(probe)
        if problem:
            problems.append(problem)
    return problems

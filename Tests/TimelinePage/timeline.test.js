// The HTML timeline page's functions that compute text and numbers, run under Node's test runner:
//   node --test Tests/TimelinePage/
// The page exports them when it is loaded outside a browser (no `document`), and draws nothing.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const page = require(path.join(__dirname, "..", "..", "Sources", "LCTraceKit", "Resources", "timeline.js"));

test("numbers get thousands separators, fractions stay as they are", () => {
  assert.equal(page.num(999), "999");
  assert.equal(page.num(1000), "1,000");
  assert.equal(page.num(-1234567), "-1,234,567");
  assert.equal(page.num(1.5), "1.5");
  assert.equal(page.num(undefined), "0");
});

test("plurals: one, many, and a word that does not change", () => {
  assert.equal(page.plural(1, "line"), "1 line");
  assert.equal(page.plural(0, "session"), "0 sessions");
  assert.equal(page.plural(1200, "line"), "1,200 lines");
  assert.equal(page.plural(2, "info", "info"), "2 info");
});

test("byte sizes in the largest whole unit, one decimal otherwise", () => {
  assert.equal(page.bytes(32 << 20), "32 MiB");
  assert.equal(page.bytes(1536), "1.5 KiB");
  assert.equal(page.bytes(10), "10 bytes");
  assert.equal(page.bytes(3 * (1 << 30)), "3 GiB");
});

test("durations in the session's clock: microseconds, milliseconds, seconds, or lines", () => {
  assert.equal(page.fmtDuration(999, "us"), "999 µs");
  assert.equal(page.fmtDuration(1500, "us"), "1.5 ms");
  assert.equal(page.fmtDuration(12345, "us"), "12.3 ms");
  assert.equal(page.fmtDuration(150000, "us"), "150 ms");
  assert.equal(page.fmtDuration(2500000, "us"), "2.5 s");
  assert.equal(page.fmtDuration(-1500, "us"), "1.5 ms");
  assert.equal(page.fmtDuration(3, "lines"), "3 lines");
  assert.equal(page.fmtOffset(250, "us"), "+250 µs");
  assert.equal(page.fmtOffset(3, "lines"), "line +3");
});

test("line ranges name one line or a span", () => {
  assert.equal(page.lineRange(5), "line 5");
  assert.equal(page.lineRange(5, 5), "line 5");
  assert.equal(page.lineRange(5, 1009), "lines 5–1,009");
  assert.equal(page.lineRange("x", 3), "");
});

test("wall-clock times count from the session's start and wrap at midnight", () => {
  const clock = page.wallClock("2016-03-17 16:02:37.277");
  assert.equal(clock(0), "16:02:37.277");
  assert.equal(clock(1000000), "16:02:38.277");
  assert.equal(clock(1500), "16:02:37.278");
  assert.equal(page.wallClock("23:59:59.500")(1000000), "00:00:00.500");
  assert.equal(page.wallClock("no time here"), null);
  assert.equal(page.wallClock(undefined), null);
});

test("transitions and states map to their classes; cancelled and unrecognized ones are dashed", () => {
  assert.equal(page.transitionClass("pop-to-root"), "tk-pop");
  assert.equal(page.transitionClass("sheet-present"), "tk-present");
  assert.equal(page.transitionClass("tab-switch"), "tk-other");
  assert.equal(page.dashedTransition("interactive-pop-cancelled"), true);
  assert.equal(page.dashedTransition("unrecognized"), true);
  assert.equal(page.dashedTransition("push"), false);
  assert.equal(page.stateClass("visible"), "st-visible");
  assert.equal(page.stateClass("somewhere"), null);
  assert.equal(page.fallbackColor("custom-state"), page.fallbackColor("custom-state"));
  assert.match(page.fallbackColor("custom-state"), /^#[0-9a-f]{6}$/);
});

test("axis steps are 1, 2, 2.5 or 5 times a power of ten, whole on a line clock", () => {
  assert.equal(page.niceStep(0), 1);
  assert.equal(page.niceStep(0.7, true), 1);
  assert.equal(page.niceStep(3, false), 5);
  assert.equal(page.niceStep(23, false), 25);
  assert.equal(page.niceStep(2.3, true), 5);
  assert.equal(page.niceStep(23, true), 25);
  assert.equal(page.niceStep(700, false), 1000);
  const seconds = page.axisLabeller(200000, "us");
  assert.equal(seconds(0), "0");
  assert.equal(seconds(1500000), "1.5 s");
  assert.equal(page.axisLabeller(500, "us")(2500), "2.5 ms");
  assert.equal(page.axisLabeller(10, "us")(40), "40 µs");
  assert.equal(page.axisLabeller(10, "lines")(40), "line +40");
});

test("a session's line in the picker: its counts, and whether it is embedded", () => {
  const session = { index: 4, title: "Session 4 · ShopApp", controllers: 1, transitions: 3, errors: 1, infos: 2, embedded: false };
  assert.equal(page.findingCount(session), 3);
  assert.deepEqual(page.severityCounts(session), ["1 error", "2 info"]);
  assert.equal(page.optionText(session), "Session 4 · ShopApp — 1 controller, 3 transitions · 1 error, 2 info · not embedded");
  assert.equal(page.optionText({ index: 2 }), "session 2 — 0 controllers, 0 transitions");
});

test("the page says what it left out", () => {
  const limits = { embeddedSessions: 3, sessionsNotEmbedded: 1, embedBytesLimit: 32 << 20, sessionsNotListed: 0,
                   findingsListed: 5000, findingsNotListed: 2 };
  assert.deepEqual(page.capsText({ limits }), [
    "This page embeds the timelines of the first 3 sessions (at most 32 MiB); 1 later session is listed only. " +
      "Run lctrace with --session to draw it.",
    "The findings table lists the first 5,000 findings; 2 more are not listed (the text and JSON reports have them all).",
  ]);
  assert.deepEqual(page.capsText({}), []);
});

"""Scripts the live page's tests run in the playground's page in headless Chromium
(tests/test_playground_live.py): each one a JavaScript expression, some with a %s to fill."""

# What the page in Chromium shows: whose turn the table says ("🔵 Turn: **ann**"), whether the
# game is over, and which buttons it would let ann click.
SHOWN = """(() => {
  const table = document.querySelector('article.channel-message[data-message-id="%s"]');
  const text = table ? table.innerText : "";
  const lines = [...(table ? table.querySelectorAll("p") : [])];
  const line = lines.find((p) => /Turn:/.test(p.textContent));
  const turn = line?.querySelector("strong")?.textContent;
  const enabled = [...document.querySelectorAll("button.component-button[data-control-key]")]
    .filter((b) => !b.disabled && b.getAttribute("aria-disabled") !== "true")
    .map((b) => b.dataset.controlKey);
  return {turn: turn ? turn.trim() : null,
          over: /game over|🏆/.test(text), enabled,
          status: document.querySelector("#action-status")?.innerText || ""};
})()"""
# Every state the page went through, recorded in the page as it changes (a MutationObserver),
# not sampled by the test: a state the page showed for a moment is seen even when this
# process, busy, looks only seconds later. And the answer to each of the page's actions, so a
# click's outcome is known, not guessed from the status line.
RECORD = """(() => {
  window.__seen = [];
  window.__answers = [];
  const fetch = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetch(...args);
    if (String(args[0]).endsWith("/api/action")) {
      // Only watching: an answer that is not JSON (an HTTP error) is noted, and the page
      // gets the response as it came either way.
      const answer = await response.clone().json().catch(() => ({status: response.status}));
      let kind = null;  // which action it answers: a click, or the page's own (its viewport)
      try { kind = JSON.parse(args[1]?.body).kind; } catch {}
      window.__answers.push({kind, rejected: answer.rejected, settlement: answer.settlement,
        acknowledgement: answer.acknowledgement, status: answer.status,
        codes: (answer.diagnostics || []).map((d) => d.code)});
    }
    return response;
  };
  const now = () => {
    const table = document.querySelector(
      `article.channel-message[data-message-id="${window.__table}"]`);
    const line = [...(table ? table.querySelectorAll("p") : [])]
      .find((p) => /Turn:/.test(p.textContent));
    const turn = line?.querySelector("strong")?.textContent;
    return {turn: turn ? turn.trim() : null,
            over: /game over|🏆/.test(table ? table.textContent : ""),
            status: document.querySelector("#action-status")?.textContent || ""};
  };
  new MutationObserver(() => {
    const state = now(), last = window.__seen[window.__seen.length - 1];
    if (!last || ["turn", "over", "status"].some((k) => last[k] !== state[k]))
      window.__seen.push(state);
  }).observe(document, {subtree: true, childList: true, characterData: true});
})()"""
# The click, only if the page would take it now, in one script: between two scripts the page
# may start an action of its own (a resize's viewport update) and then drop the click.
CLICK = """(() => {
  const button = document.querySelector('button[data-control-key="%s"]');
  const status = document.querySelector("#action-status")?.textContent || "";
  if (!button || button.disabled || button.getAttribute("aria-disabled") === "true"
      || status.endsWith("…")) return null;
  const start = window.__seen.length;
  button.click();
  return {start, status};
})()"""
# A person picking a channel in the playground's Channel menu.
PICK = """(() => {
  const menu = document.querySelector("#playground-channel");
  menu.value = "%s";
  menu.dispatchEvent(new Event("change"));
})()"""

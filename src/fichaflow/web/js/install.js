// Installing a page on the phone's home screen and keeping it up to date: registers the page's
// service worker, and when the server has a new version (the worker installed beside the running
// one, waiting), offers it — «Hay una versión nueva: actualizar». Nothing changes until the player
// taps it: a new version never takes over a page by itself, in the middle of a hand or anywhere.

const HOUR = 60 * 60 * 1000;

/**
 * Register ``worker`` for ``scope`` and offer its updates in a small bar at the top of the page.
 * ``say(key)`` gives the bar's words: ``update_ready`` and ``update_now``.
 * Returns the registration, or null where the browser has no service workers (a page served over
 * plain http to another machine: it works, only not offline).
 */
export async function offerUpdates(worker, scope, say) {
  if (!("serviceWorker" in navigator)) return null;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(worker, { scope, updateViaCache: "none" });
  } catch {
    return null;
  }
  let asked = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (asked) location.reload(); // the player asked for the new version: it runs the page now
  });

  const offer = (waiting) => {
    if (!navigator.serviceWorker.controller) return; // the first install: this is the version
    let bar = document.getElementById("update-offer");
    if (!bar) {
      bar = document.createElement("div");
      bar.id = "update-offer";
      bar.className = "update-offer";
      bar.setAttribute("role", "status");
      const text = document.createElement("span");
      const button = document.createElement("button");
      button.type = "button";
      bar.append(text, button);
      document.body.prepend(bar);
    }
    const [text, button] = bar.children;
    text.textContent = say("update_ready");
    button.textContent = say("update_now");
    button.onclick = () => {
      asked = true;
      button.disabled = true;
      waiting.postMessage("update");
    };
  };

  const watch = (installing) => {
    installing.addEventListener("statechange", () => {
      if (installing.state === "installed") offer(installing);
    });
  };
  if (registration.waiting) offer(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  // A page left open all evening still hears of a new version.
  const check = () => registration.update().catch(() => {});
  setInterval(check, HOUR);
  addEventListener("online", check);
  return registration;
}

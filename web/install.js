// The client as an installable app: its service worker (/sw.js, at the root scope so that it
// serves every page's shell offline). A browser without service workers, or one that refuses
// it, gets the pages as before.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker not registered:", err.message));
}

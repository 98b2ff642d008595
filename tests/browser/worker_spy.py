"""The pages' service worker watched through the DevTools protocol: a push message delivered to
it (ServiceWorker.deliverPushMessage: what a push service's message becomes once Chromium has
decrypted it), the notifications it asks for recorded, and a click on one dispatched.

The headless shell has no notification platform, so the notification the worker asks for
(showNotification) is recorded, not shown. No protocol clicks a notification, so the click is
dispatched in the worker (an event a script made, carrying the recorded notification's data),
and since only a real click lets a worker open or focus a window, the windows it asks for are
recorded instead (docs/web-push.md says what is simulated)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import BrowserContext, CDPSession, Page, Worker

__all__ = ["CLICK", "STAND_IN", "WorkerSpy"]

SPIES = """() => {
  self.opened = [];
  self.focused = [];
  self.shown = [];
  self.closed = [];
  Clients.prototype.openWindow = async function (url) { self.opened.push(url); return null; };
  WindowClient.prototype.focus = async function () { self.focused.push(this.url); return this; };
  ServiceWorkerRegistration.prototype.showNotification = async function (title, options) {
    self.shown.push({ title, body: options.body, tag: options.tag, url: options.data.url });
  };
}"""
"""Records the notifications the worker asks for, and the windows it opens and focuses (only a
real click may do either)."""

CLICK = """async (tag) => {
  const asked = self.shown.findLast((n) => n.tag === tag);
  const notification = { data: { url: asked.url }, close() { self.closed.push(tag); } };
  const event = new ExtendableEvent("notificationclick");
  Object.defineProperty(event, "notification", { value: notification });
  self.dispatchEvent(event);
  for (let i = 0; i < 50 && !self.opened.length && !self.focused.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const taken = (list) => list.splice(0);
  const [opened, focused, closed] = [self.opened, self.focused, self.closed].map(taken);
  return { opened, focused, closed };
}"""
"""Clicks the last notification asked for with a tag; answers the windows opened and focused,
and the tags of the notifications closed."""


STAND_IN = """(subscription) => {
  let granted = "default";
  let kept = null;
  window.asked = [];
  Object.defineProperty(Notification, "permission", { get: () => granted, configurable: true });
  Notification.requestPermission = async () => (granted = "granted");
  PushManager.prototype.getSubscription = async function () { return kept; };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    const text = btoa(String.fromCharCode(...key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    window.asked.push({ userVisibleOnly: options.userVisibleOnly, key: text });
    kept = {
      endpoint: subscription.endpoint,
      toJSON: () => subscription,
      unsubscribe: async () => { kept = null; return true; },
    };
    return kept;
  };
}"""
"""A page script taking a subscription's JSON: grants the notification permission when asked,
and stands in for the browser's push service, subscribing to the subscription given (the
headless shell has neither). The options each subscribe was given are kept in window.asked."""


class WorkerSpy:
    """A context's page on the relay's pages, with their worker in control and recording."""

    def __init__(self, context: BrowserContext, page: Page, root: str) -> None:
        """Opens root (the pages' root URL, ending in /) in page and waits for the worker to
        control it."""
        self.context = context
        self.page = page
        self.root = root
        self.cdp: CDPSession = context.new_cdp_session(page)
        self.registrations: list[dict[str, Any]] = []
        self.cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: self.registrations.extend(event["registrations"]),
        )
        self.cdp.send("ServiceWorker.enable")
        page.goto(root)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        self.worker: Worker = context.service_workers[0]
        self.worker.evaluate(SPIES)

    def push(self, data: bytes) -> None:
        """Delivers a push message to the pages' worker, as Chromium does once decrypted."""
        (registration,) = {r["registrationId"] for r in self.registrations if not r["isDeleted"]}
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": self.root, "registrationId": registration, "data": data.decode()},
        )

    def shown(self, count: int) -> list[dict[str, str]]:
        """Waits (at most 5 s) for count notifications asked for; returns them, in order."""
        deadline = time.monotonic() + 5
        while True:
            shown: list[dict[str, str]] = self.worker.evaluate("() => self.shown")
            if len(shown) >= count or time.monotonic() > deadline:
                return shown
            self.page.wait_for_timeout(50)

    def click(self, tag: str) -> dict[str, list[str]]:
        """Clicks the last notification asked for with tag; returns the windows the worker
        opened and focused, and the tags it closed."""
        clicked: dict[str, list[str]] = self.worker.evaluate(CLICK, tag)
        return clicked

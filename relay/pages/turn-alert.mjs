// Your turn, noticed: a short tone (off unless the player turns it on; the choice is kept in
// localStorage), the window title while the tab is in the background ("● Your turn — X and 0",
// until the tab is seen again), and a notification if the player allowed them (asked only when
// the player presses the page's button, never on load). The tone is made with WebAudio: no
// audio file.

/** The localStorage key of the sound choice: "on", or anything else for off. */
export const SOUND_STORAGE = "movewire.sound";

/** Returns the window title that says it became this player's turn while away. */
export function turnTitle(title) {
  return `● Your turn — ${title}`;
}

/** Tells the player that it is their turn, by the means they chose. */
export class TurnAlert {
  #window;
  #title;
  #onChange;
  #storage;
  #context = null;
  #flagged = false;
  #soundOn = false;

  /**
   * @param {object} options
   * @param {string} options.title the game's name, e.g. "X and 0"
   * @param {() => void} options.onChange told when the title flag or the notification
   *   permission changed (the page redraws)
   * @param {Window} [options.window] the window (its document, localStorage, AudioContext)
   */
  constructor({ title, onChange, window = globalThis }) {
    this.#window = window;
    this.#title = title;
    this.#onChange = onChange;
    try {
      this.#storage = window.localStorage;
    } catch {
      this.#storage = null; // storage refused: the choice lasts as long as the page
    }
    this.#soundOn = this.#read() === "on";
    // A browser lets a page make sound only after the player's touch or key: wake the audio
    // then, when the tone is on (after a reload, the choice is remembered but no touch yet).
    const wake = () => {
      if (this.#soundOn) this.#audio();
    };
    for (const kind of ["pointerdown", "keydown"]) {
      window.addEventListener(kind, wake, { capture: true, passive: true });
    }
    window.document.addEventListener("visibilitychange", () => {
      if (!window.document.hidden && this.#flagged) {
        this.#flagged = false;
        this.#onChange();
      }
    });
  }

  /** Returns whether the tone plays at each turn. */
  get sound() {
    return this.#soundOn;
  }

  /** Turns the tone on or off, and keeps the choice; call it from the player's click, which
   * lets the page make sound from then on. */
  set sound(on) {
    this.#soundOn = Boolean(on);
    try {
      this.#storage?.setItem(SOUND_STORAGE, on ? "on" : "off");
    } catch {
      // Full or refused: the choice lasts as long as the page.
    }
    if (on) this.#audio();
  }

  /** Returns whether the title should say it is this player's turn (set while away). */
  get flagged() {
    return this.#flagged;
  }

  /** Returns the title to show for the game's `usual` one. */
  title(usual) {
    return this.#flagged ? turnTitle(this.#title) : usual;
  }

  /** Returns whether the page may ask for notifications (supported and not yet answered). */
  get canAsk() {
    return "Notification" in this.#window && this.#window.Notification.permission === "default";
  }

  /** Asks the player to allow notifications (from their click only). */
  async ask() {
    if (!this.canAsk) return;
    try {
      await this.#window.Notification.requestPermission();
    } finally {
      this.#onChange();
    }
  }

  /** Tells the player it has become their turn. */
  yourTurn() {
    if (this.#soundOn) this.#tone();
    if (!this.#window.document.hidden) return;
    this.#flagged = true;
    this.#onChange();
    if ("Notification" in this.#window && this.#window.Notification.permission === "granted") {
      const shown = new this.#window.Notification(turnTitle(this.#title), { tag: "movewire-turn" });
      shown.onclick = () => this.#window.focus();
    }
  }

  #read() {
    try {
      return this.#storage?.getItem(SOUND_STORAGE) ?? null;
    } catch {
      return null;
    }
  }

  /** Returns the page's audio context, made (and woken) on first need. */
  #audio() {
    const Context = this.#window.AudioContext ?? this.#window.webkitAudioContext;
    if (Context === undefined) return null;
    this.#context ??= new Context();
    if (this.#context.state === "suspended") this.#context.resume().catch(() => {});
    return this.#context;
  }

  /** Plays two short rising notes, softly. */
  #tone() {
    const context = this.#audio();
    if (context === null) return;
    const now = context.currentTime;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(660, now);
    oscillator.frequency.setValueAtTime(880, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.32);
  }
}

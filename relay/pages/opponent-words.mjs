// How a game page speaks of the other side: "your opponent" for a person, "the computer" when
// playing it. The host's dialogs (endings.mjs, mirroring the SDK) say "partner", the
// protocol's word; the page says its own.

/** Returns the other side's names: {name ("Your opponent"), label ("Opponent"), who ("Opponent")}. */
export function opponentOf(againstComputer) {
  return againstComputer
    ? Object.freeze({ name: "The computer", label: "Computer", who: "The computer" })
    : Object.freeze({ name: "Your opponent", label: "Opponent", who: "Opponent" });
}

/** Returns a host's dialog with the partner named as the page names the other side. */
export function asOpponent(text, againstComputer) {
  const { name } = opponentOf(againstComputer);
  return text
    .replace(/\bYour partner\b/g, name)
    .replace(/\byour partner\b/g, name.toLowerCase())
    .replace(/\ba partner\b/g, againstComputer ? "the computer" : "an opponent");
}

/** Returns what the page says when this side resigned: "You resigned: your opponent wins." */
export function resignedWords(againstComputer) {
  return `You resigned: ${opponentOf(againstComputer).name.toLowerCase()} wins.`;
}

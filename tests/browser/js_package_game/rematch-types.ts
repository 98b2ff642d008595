// Type-checked with count.ts (tsconfig.json), not built: the package's second entry point,
// `movewire/rematch`, resolves to its module and its declarations.
import type { Ticket } from "movewire";
import { RematchWatch, rematchView, type Rematch } from "movewire/rematch";

export function watch(ticket: Ticket, onChange: (rematch: Rematch) => void): RematchWatch {
  return new RematchWatch({ relay: "", ticket, onChange });
}

export const before: { text: string; offer: boolean } = rematchView(null, 0);

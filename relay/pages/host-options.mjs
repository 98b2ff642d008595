// What a RelayHost is made with (movewire.mjs): new RelayHost(options),
// RelayHost.resume(ticket, options). Types only: the module exports nothing at run time.

/** @import { RelayHost } from "./movewire.mjs" */
/** @import { Game, StateValue } from "./game.mjs" */
/** @import { Ticket, Timing } from "./relay-client.mjs" */
/** @import { TimeControl } from "./clock.mjs" */
/** @import { Table } from "./table.mjs" */
/** @import { RatingRange } from "./ratings.mjs" */
/**
 * What RelayHost's options hold: new RelayHost(options), RelayHost.resume(ticket, options).
 * @typedef {object} HostOptions
 * @property {(host: RelayHost, firstMove: boolean) => Game} createGame makes the game once
 *   paired (firstMove: whether this side moves first)
 * @property {string} [relay] the relay's base URL; "" (the default) is the page's own origin
 * @property {string} [gameKey] the game key sought
 * @property {string} [version] the version of the move strings the game speaks
 * @property {string | null} [room] a private room's name (null: meet any seeker)
 * @property {boolean} [public] whether the seek is listed in the game's lobby
 * @property {string | null} [name] this side's display name, sent with the seek
 * @property {TimeControl | null} [timeControl] the clock sought (null: none)
 * @property {string | null} [player] a player key the seat is listed under (correspondence)
 * @property {string | null} [contact] the handle the relay's your-turn notices name
 * @property {RatingRange | null} [ratingRange] with a player key and no
 *   room, the ratings an opponent may have
 * @property {Timing} [timing] poll holds, request timeouts, backoff and give-up time
 * @property {(text: string) => void} [onDialog] shows a message (default: the console)
 * @property {(state: StateValue) => void} [onState] told of each new State
 * @property {(ticket: Ticket) => void} [onTicket] told of the seat once seated (and of
 *   each keep()), to save it and resume later
 * @property {(reachable: boolean, failure: string | null) => void} [onReachable] told when the
 *   relay stops answering and when it answers again
 * @property {(table: Table) => void} [onTable] told of each newer table
 * @property {typeof fetch} [fetch] for tests: the fetch to use
 * @property {() => number} [random] for tests: the random numbers of the jitter, in [0, 1)
 * @property {{now(): number, sleep(ms: number, signal?: AbortSignal): Promise<void>}} [clock]
 *   for tests: the clock
 */

export {};

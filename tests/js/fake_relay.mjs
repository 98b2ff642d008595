// An in-memory stand-in for protocol v1 behind a fetch function, with injectable faults.
// It lets the host's state machine be driven step by step; relay.test.mjs covers the real one.

function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

function error(status, code, retryAfter = null) {
  const headers = retryAfter === null ? {} : { "Retry-After": String(retryAfter) };
  return json(status, { error: { code, message: code } }, headers);
}

export class FakeRelay {
  /**
   * `referee`, when given, stands for a game's referee run by the relay (issue 26):
   * `referee.move(match, event)` returns a verdict for a move as it is posted ({reason:
   * "over" | "illegal", seat, winner, detail}, or null: legal so far), appended as the
   * `ended` event at once; `referee.dispute(match, event, disputer, reason)` returns the
   * verdict of a dispute of `event` ({reason: "illegal" | "disputed", seat, winner, detail}).
   */
  constructor({ coin = 0, holdMs = 20, referee = null } = {}) {
    this.coin = coin;
    this.holdMs = holdMs;
    this.referee = referee;
    this.matches = new Map();
    this.tokens = new Map();
    /** Every request seen, as "METHOD /path" (query left out), with its JSON body. */
    this.requests = [];
    this.faults = [];
    this.fetch = this.fetch.bind(this);
    this.nextId = 1;
    /** Requests of each seat token in flight now, and the most it ever had at once. */
    this.inFlight = new Map();
    this.mostInFlight = new Map();
    /** Each game's leaderboard players, as GET /v1/games/{game}/leaderboard lists them. */
    this.boards = new Map();
    /** Each player key's ratings, as GET /v1/player/ratings answers them. */
    this.ratings = new Map();
  }

  /**
   * Rates a finished match as the relay would once it has: `changes` is [{before, after},
   * {before, after}] by seat (GET /v1/matches/{id} then answers rated: true and them).
   */
  rate(matchId, changes) {
    const match = this.matches.get(matchId);
    match.rated = true;
    match.ratings = changes;
  }

  /**
   * Makes the next `times` requests that `test(method, path)` matches fail: kind is
   * {status, code, retryAfter}, "network" (nothing reaches the relay) or "lost" (the relay
   * applies the request, then the answer is lost).
   */
  failNext(test, kind, times = 1) {
    this.faults.push({ test, kind, times });
  }

  /** Appends an event as the relay would, for a seat acting without a host. */
  append(matchId, event) {
    const match = this.matches.get(matchId);
    match.log.push({ seq: match.log.length + 1, ...event });
    for (const wake of match.waiters.splice(0)) wake();
  }

  /**
   * Cuts the match's log to its first `keep` events and rewinds its turn and status to what
   * they left, as a Redis replica promoted after a failover holds it (tests/support/lost_writes.py).
   */
  loseTail(matchId, keep) {
    const match = this.matches.get(matchId);
    match.log.length = keep;
    match.status = "playing";
    match.turn = match.log[0].first;
    match.ending = false;
    for (const event of match.log.slice(1)) {
      if (event.type === "move" || event.type === "pass") {
        match.turn = 1 - event.seat;
        match.ending = event.type === "move" && event.end;
      }
    }
  }

  /** Ends a match as if the relay decided it (abandonment, say); `more`: at, detail, winner. */
  end(matchId, reason, seat, more = {}) {
    this.matches.get(matchId).status = "finished";
    this.append(matchId, { type: "ended", reason, seat, ...more });
  }

  count(prefix) {
    return this.requests.filter((r) => r.line.startsWith(prefix)).length;
  }

  /** Answers like fetch: an aborted signal rejects at once, as a real fetch does. */
  fetch(url, init = {}) {
    const signal = init.signal;
    const token = init.headers?.Authorization;
    if (signal?.aborted) return Promise.reject(new DOMException("aborted", "AbortError"));
    if (token) {
      const now = (this.inFlight.get(token) ?? 0) + 1;
      this.inFlight.set(token, now);
      this.mostInFlight.set(token, Math.max(now, this.mostInFlight.get(token) ?? 0));
    }
    let done = false;
    const finish = () => {
      if (!done && token) this.inFlight.set(token, this.inFlight.get(token) - 1);
      done = true;
    };
    if (!signal) return this.#fetch(url, init).finally(finish);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        finish();
        reject(new DOMException("aborted", "AbortError"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#fetch(url, init).finally(finish).then(resolve, reject);
    });
  }

  async #fetch(url, init) {
    const { pathname, searchParams } = new URL(url, "http://fake");
    const method = init.method ?? "GET";
    const body = init.body === undefined ? undefined : JSON.parse(init.body);
    const wait = searchParams.get("wait");
    this.requests.push({ line: `${method} ${pathname}`, body, wait });
    const fault = this.faults.find((f) => f.times > 0 && f.test(method, pathname));
    if (fault !== undefined) {
      fault.times -= 1;
      if (fault.kind === "network") throw new TypeError("fetch failed");
      if (fault.kind === "lost") {
        await this.#answer(method, pathname, searchParams, init, body);
        throw new TypeError("fetch failed");
      }
      if (fault.kind.html) return new Response("<h1>Bad gateway</h1>", { status: fault.kind.status });
      return error(fault.kind.status, fault.kind.code, fault.kind.retryAfter ?? null);
    }
    return this.#answer(method, pathname, searchParams, init, body);
  }

  async #answer(method, pathname, query, init, body) {
    if (method === "POST" && pathname === "/v1/seek") return this.#seek(body);
    const board = /^\/v1\/games\/([^/]+)\/leaderboard$/.exec(pathname);
    if (board !== null && method === "GET") {
      const game = decodeURIComponent(board[1]);
      const limit = Number(query.get("limit") ?? 50);
      return json(200, { game, players: (this.boards.get(game) ?? []).slice(0, limit) });
    }
    if (pathname === "/v1/player/ratings" && method === "GET") {
      const key = (init.headers?.Authorization ?? "").replace("Bearer ", "");
      const game = query.get("game");
      const all = this.ratings.get(key) ?? [];
      return json(200, { ratings: game === null ? all : all.filter((r) => r.game === game) });
    }
    const info = /^\/v1\/matches\/([^/]+)$/.exec(pathname);
    if (info !== null && method === "GET") {
      const match = this.matches.get(info[1]);
      if (match === undefined) return error(404, "match/unknown");
      const rated = match.rated ?? false;
      const answer = { match: match.id, status: match.status, turn: match.turn, rated };
      return json(200, rated === true ? { ...answer, ratings: match.ratings } : answer);
    }
    const found = /^\/v1\/matches\/([^/]+)\/(\w+)$/.exec(pathname);
    if (found === null) return error(404, "route/not_found");
    const [, id, action] = found;
    const match = this.matches.get(id);
    if (match === undefined) return error(404, "match/unknown");
    if (match.status === "expired") return error(410, "match/expired");
    const auth = init.headers?.Authorization;
    const seat = auth ? this.tokens.get(auth.replace("Bearer ", "")) : undefined;
    if (auth && (seat === undefined || seat.match !== id)) return error(403, "auth/bad_token");
    if (action === "events" && method === "GET") {
      return this.#events(match, Number(query.get("after") ?? 0));
    }
    if (seat === undefined) return error(401, "auth/required");
    const answer = this.#act(match, seat.seat, action, body ?? {});
    if (action !== "moves" || !query.has("wait") || answer.status !== 200) return answer;
    // Held for the reply: the answer carries the events above the move.
    const { seq } = await answer.json();
    const held = await this.#events(match, seq);
    if (held.status !== 200) return held;
    return json(200, { seq, ...(await held.json()) });
  }

  #seek({ game, version = "", room = null, token = null, player = null, rating_range: range = null }) {
    // A rating range needs a player key and no room (docs/ratings.md); pairing ignores it here.
    if (range !== null && (player === null || room !== null)) return error(400, "request/invalid");
    const again = token === null ? undefined : this.tokens.get(token);
    if (again !== undefined) return json(201, { match: again.match, seat: again.seat, token });
    const key = `${game}/${version}/${room ?? ""}`;
    const waiting = [...this.matches.values()].find((m) => m.key === key && m.status === "waiting");
    if (waiting === undefined) {
      if (room && [...this.matches.values()].some((m) => m.key === key && m.status === "playing")) {
        return error(409, "room/full");
      }
      const id = `m${this.nextId++}`;
      const match = { id, key, status: "waiting", log: [], waiters: [], turn: null, ending: false };
      this.matches.set(id, match);
      return this.#seat(match, 0, token);
    }
    waiting.status = "playing";
    waiting.turn = this.coin;
    const answer = this.#seat(waiting, 1, token);
    this.append(waiting.id, { type: "started", first: this.coin });
    return answer;
  }

  #seat(match, seat, chosen = null) {
    const token = chosen ?? `t-${match.id}-${seat}`;
    this.tokens.set(token, { match: match.id, seat });
    return json(201, { match: match.id, seat, token });
  }

  async #events(match, after) {
    if (match.log.length < after) return error(409, "match/behind");
    if (match.log.length <= after) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, this.holdMs);
        timer.unref?.(); // a poll nobody waits for any more must not keep node alive
        match.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (match.log.length < after) return error(409, "match/behind");
    return json(200, { events: match.log.slice(after) });
  }

  #act(match, seat, action, body) {
    if (action === "cancel") {
      if (match.status !== "waiting") return error(409, "match/started");
      match.status = "expired";
      return json(200, { cancelled: true });
    }
    if (match.status === "finished") return error(409, "match/finished");
    if (match.status === "waiting") return error(409, "match/not_started");
    if (action === "resign") {
      this.end(match.id, "resigned", seat);
      return json(200, { seq: match.log.length });
    }
    const last = match.log.length;
    if (action === "moves") {
      const again = match.log[body.after];
      if (body.after < last && again?.type === "move" && again.seat === seat) {
        if (again.move === body.move && again.end === Boolean(body.end)) {
          return json(200, { seq: again.seq });
        }
      }
    }
    if (body.after !== last) return error(409, "turn/stale");
    if (action === "confirm") {
      const lastMove = match.log.at(-1);
      const played = lastMove?.type === "move" || lastMove?.type === "pass";
      const disputable = played && lastMove.seat !== seat && !body.agree;
      if (!match.ending && !disputable) return error(409, "match/not_ending");
      if (match.turn !== seat) return error(409, "turn/not_yours");
      if (body.agree) {
        // An agreed end is rated by the mover's claim; without one it is not rated.
        match.rated = lastMove?.claim ? "pending" : false;
        this.end(match.id, "agreed", seat);
        return json(200, { seq: last + 1 });
      }
      // A dispute names the disputed event (`at`) and carries the disputer's reason (`detail`).
      const reason = typeof body.reason === "string" ? body.reason.trim().slice(0, 200) : "";
      const detail = reason === "" ? {} : { detail: reason };
      const verdict = this.referee?.dispute(match, lastMove, seat, reason) ?? null;
      if (verdict === null) this.end(match.id, "disputed", seat, { at: lastMove.seq, ...detail });
      else this.end(match.id, verdict.reason, verdict.seat, { at: lastMove.seq, ...detail, ...verdict });
      return json(200, { seq: last + 1 });
    }
    if (match.ending) return error(409, "match/ending");
    if (match.turn !== seat) return error(409, "turn/not_yours");
    match.turn = 1 - seat;
    if (action === "pass") {
      this.append(match.id, { type: "pass", seat });
    } else {
      const end = Boolean(body.end);
      const claim = body.claim ?? null;
      if (claim !== null && (!end || !["win", "draw", "loss"].includes(claim))) {
        match.turn = seat;
        return error(400, "request/invalid");
      }
      match.ending = end;
      // The move event carries the mover's claim when it gave one (docs/ratings.md).
      this.append(match.id, claim === null ? { type: "move", seat, move: body.move, end } : { type: "move", seat, move: body.move, end, claim });
      // A refereed move that ends the game (or breaks its rules) is decided at once.
      const verdict = this.referee?.move(match, match.log.at(-1)) ?? null;
      if (verdict !== null) this.end(match.id, verdict.reason, verdict.seat, { at: last + 1, ...verdict });
    }
    return json(200, { seq: last + 1 });
  }
}

"""presstime sync: pull the board's journal into the local history, and rebuild its games."""

EXAMPLE = """examples:
  presstime sync
  presstime sync --port /dev/ttyACM0 --db ./club.sqlite3

Idempotent and resumable: only records after the last one stored are asked for, page by page,
each page stored in one transaction. A pulled cable loses nothing; run it again to continue.
Games rebuilt from the journal (finishing orders, times, ties) update their history entry, or
wait as a draft until their scorepad numbers are entered. Heat and Mini FITS games show the
stages or cards revealed per heist or round; Myth Fits games the photo tokens the board counted
(they go into the record; who gathered the creatures is typed)."""


def configure(parser):
    from ..boards import add_port_argument
    from ..store import add_db_argument

    add_port_argument(parser)
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print what was synced as one JSON document")


def progress_bar(stream):
    """A progress(done, total) callback drawing a bar on a terminal (nothing otherwise)."""
    if not stream.isatty():
        return None

    def draw(done, total):
        width = 30
        frac = 1.0 if total <= 0 else min(1.0, done / float(total))
        fill = int(frac * width)
        stream.write("\r  [%s%s] %d/%d records" % ("#" * fill, "." * (width - fill), done, total))
        stream.flush()

    return draw


def store_games(store, board_id, games):
    """Update or draft each rebuilt game; returns one summary dict per game."""
    from ..core.games import GAMES

    from .. import rebuild
    from ..errors import BadInput

    by_source = {}
    for g in store.list_games():
        by_source.setdefault(g["source"], g["id"])
    out = []
    for game in games:
        key = rebuild.game_key(board_id, game)
        summary = {"key": key, "game": game["config"].get("game", GAMES[0]),
                   "players": game["config"].get("names", []), "rounds": len(game["rounds"]),
                   "finish": [r["finish"] for r in game["rounds"]], "over": game["over"],
                   "round_details": game["rounds"]}
        if "photo_tokens" in game:
            summary["photo_tokens"] = game["photo_tokens"]
            summary["winner"] = game["winner"]
        gid = by_source.get(key)
        if gid is not None:
            from ..store import DamagedGame

            try:
                stored = store.get_game(gid)
            except DamagedGame as e:  # left as it is, named; the other games go on
                summary["problem"] = str(e)
                out.append(summary)
                continue
            record = rebuild.game_record(game, stored)
            try:
                store.update_game(gid, record)
                summary["stored"] = gid
            except BadInput as e:
                summary["problem"] = e.messages[0]
        else:
            record = rebuild.game_record(game, store.load_draft(key))
            store.save_draft(key, record)
            summary["draft"] = key
        out.append(summary)
    return out


def _face(game):
    from ..core import games

    return games.module(game) or games.module(games.GAMES[0])


def other_game_lines(s):
    """What the board knows of a game other than the default: reveals, or photo tokens (the
    round and step words are the game's face's)."""
    out = []
    face = _face(s["game"])
    if face.STEP_WORD:
        for i, r in enumerate(s["round_details"]):
            out.append("%s %d: %d %ss revealed" % (face.ROUND_WORD, i + 1, r.get("reveals", 0), face.STEP_WORD))
    if "photo_tokens" in s:
        out.append("photo tokens: " + ", ".join("%s %d" % (n, s["photo_tokens"].get(n, 0)) for n in s["players"]))
        if s.get("winner"):
            out.append("%s reached the photo-token target" % s["winner"])
        elif s["rounds"]:
            out.append("ended at the table (who gathered the creatures is typed: presstime play or the draft)")
    return out


def run(args):
    import json
    import sys

    from .. import boards, mirror, rebuild
    from ..core.games import GAMES
    from ..journal_sync import pull
    from ..store import open_store

    port = boards.pick_port(args.port)
    client = boards.connect(port)
    try:
        with open_store(args) as store:
            bar = None if args.json else progress_bar(sys.stderr)
            board_id, added = pull(client, store, bar)
            if bar:
                sys.stderr.write("\n")
            games = rebuild.games_from_journal(store.journal(board_id))
            summaries = store_games(store, board_id, games)
            total = store.last_seq(board_id)
    finally:
        client.close()
    if args.json:
        print(json.dumps({"board": board_id, "port": port, "added": added, "last_seq": total,
                          "games": summaries}, indent=2, ensure_ascii=False))
        return 0
    print("board %s on %s: %d new record%s, %d in the history" % (board_id, port, added, "" if added == 1 else "s", total))
    for s in summaries:
        where = ("history game %d" % s["stored"]) if "stored" in s else ("draft %s" % s.get("draft", "?"))
        default = s["game"] == GAMES[0]
        print("  %s%s: %d %s%s%s -> %s" % (
            "" if default else s["game"] + " ", ", ".join(s["players"]), s["rounds"],
            _face(s["game"]).ROUND_WORD, "" if s["rounds"] == 1 else "s", ", over" if s["over"] else "", where))
        if not default:
            for line in other_game_lines(s):
                print("    " + line)
            if "problem" in s:
                print("    not updated: %s" % s["problem"])
            continue
        for i, r in enumerate(s["round_details"]):
            times = ", ".join("%s %s" % (n, mirror.stamp(r["print_ms"][n])) for n in r["finish"] if n in r["print_ms"])
            print("    round %d (%s): %s%s%s" % (
                i + 1, r.get("day") or "-", " ".join(r["finish"]) if r["finish"] else "(no tokens)",
                ("  [%s]" % times) if times else "", ("  tie: " + ", ".join(r["tied"])) if r["tied"] else ""))
        if "problem" in s:
            print("    not updated: %s" % s["problem"])
    return 0

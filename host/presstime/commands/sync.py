"""presstime sync: pull the board's journal into the local history, and rebuild its games."""

EXAMPLE = """examples:
  presstime sync
  presstime sync --port /dev/ttyACM0 --db ./club.sqlite3

Idempotent and resumable: only records after the last one stored are asked for, page by page,
each page stored in one transaction. A pulled cable loses nothing; run it again to continue.
Games rebuilt from the journal (finishing orders, times, ties) update their history entry, or
wait as a draft until their scorepad numbers are entered."""


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
    from .. import rebuild
    from ..errors import BadInput

    by_source = {}
    for g in store.list_games():
        by_source.setdefault(g["source"], g["id"])
    out = []
    for game in games:
        key = rebuild.game_key(board_id, game)
        summary = {"key": key, "players": game["config"].get("names", []), "rounds": len(game["rounds"]),
                   "finish": [r["finish"] for r in game["rounds"]], "over": game["over"],
                   "round_details": game["rounds"]}
        gid = by_source.get(key)
        if gid is not None:
            record = rebuild.game_record(game, store.get_game(gid))
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


def run(args):
    import json
    import sys

    from .. import boards, mirror, rebuild
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
        print("  %s: %d round%s%s -> %s" % (", ".join(s["players"]), s["rounds"], "" if s["rounds"] == 1 else "s",
                                           ", over" if s["over"] else "", where))
        for i, r in enumerate(s["round_details"]):
            times = ", ".join("%s %s" % (n, mirror.stamp(r["print_ms"][n])) for n in r["finish"] if n in r["print_ms"])
            print("    round %d (%s): %s%s%s" % (
                i + 1, r.get("day") or "-", " ".join(r["finish"]) if r["finish"] else "(no tokens)",
                ("  [%s]" % times) if times else "", ("  tie: " + ", ".join(r["tied"])) if r["tied"] else ""))
        if "problem" in s:
            print("    not updated: %s" % s["problem"])
    return 0

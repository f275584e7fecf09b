"""One module per `presstime` command: `configure(parser)` and `run(args) -> int`."""

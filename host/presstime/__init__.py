"""presstime on the desktop. `presstime.core` and `presstime.device` are mapped (pyproject.toml)
onto the very files under firmware/presstime/ that go on the board."""

__version__ = "0.1.0"

"""JSON schemas of /os-availability-zone: the list queries (none)."""

from tether.api import validation

# Nova takes no query parameters here and ignores any.
LIST_QUERY = validation.IGNORED_QUERY

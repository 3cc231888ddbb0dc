"""JSON schemas of the server actions suspend and resume (null, or an
empty object, as pause and unpause)."""

from tether.api.compute.schemas import pause_server
from tether.api import validation

SUSPEND = validation.action('suspend', pause_server.NOTHING)
RESUME = validation.action('resume', pause_server.NOTHING)

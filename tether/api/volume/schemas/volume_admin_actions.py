"""Schemas of the administrators' volume actions (os-force_delete)."""

from tether.api import validation as v

# Cinder takes any value (its schema leaves the value open); tether, as
# for a snapshot's and a backup's: null or an empty object.
FORCE_DELETE = v.action('os-force_delete', {
    'type': ['object', 'null'],
    'properties': {},
    'additionalProperties': False,
})

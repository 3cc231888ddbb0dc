"""Schema of the volume action revert (3.40)."""

from tether.api import validation as v

# Cinder takes a string or null and any other key; tether takes the
# snapshot's UUID and nothing else.
REVERT = v.action('revert', {
    'type': 'object',
    'properties': {'snapshot_id': v.uuid},
    'required': ['snapshot_id'],
    'additionalProperties': False,
})

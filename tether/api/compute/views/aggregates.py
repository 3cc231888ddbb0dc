"""Host aggregates as JSON, per microversion (Nova's fields)."""

from tether.api.compute import versions
from tether.api import microversion


def _time(value):
    # Nova's naive timestamps.
    return value.strftime('%Y-%m-%dT%H:%M:%S.%f') if value else None


class AggregateView:
    """``uuid`` from 2.41; a create's answer has no hosts or metadata."""

    def __init__(self, req):
        self.with_uuid = microversion.at_least(req, versions.AGGREGATE_UUID)

    def show(self, aggregate):
        out = self.created(aggregate)
        out['hosts'] = list(aggregate.hosts)
        out['metadata'] = dict(aggregate.metadata)
        return out

    def created(self, aggregate):
        out = {'id': aggregate.id, 'name': aggregate.name,
               'availability_zone': aggregate.availability_zone,
               'created_at': _time(aggregate.created_at),
               'updated_at': _time(aggregate.updated_at),
               'deleted': False, 'deleted_at': None}
        if self.with_uuid:
            out['uuid'] = aggregate.uuid
        return out

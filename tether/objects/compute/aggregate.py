"""A host aggregate (``/os-aggregates``) with its hosts and metadata."""

import dataclasses
import datetime

from tether.objects import base

# The metadata key that puts an aggregate's hosts in a zone.
AVAILABILITY_ZONE = 'availability_zone'


@dataclasses.dataclass(frozen=True)
class Aggregate(base.Record):
    id: int
    uuid: str
    name: str
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    # Not columns: the query module fills them.
    hosts: tuple = ()
    metadata: dict = dataclasses.field(default_factory=dict)

    @property
    def availability_zone(self):
        return self.metadata.get(AVAILABILITY_ZONE)

"""QoS specs: limits of a volume type's volumes and who applies them."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class QosSpecs(base.Record):
    id: str
    name: str
    # front-end (the compute host), back-end (the volume backend) or both.
    consumer: str
    specs: dict
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        """The record of an ORM row, its items loaded with it."""
        return cls.from_row(row, {i.key: i.value for i in row.items})

    @classmethod
    def from_row(cls, row, specs):
        """The record of a row of the specs' columns (ORM or Core) and of
        its items, ``specs``."""
        return cls(id=row.id, name=row.name, consumer=row.consumer,
                   specs=specs, created_at=row.created_at,
                   updated_at=row.updated_at)

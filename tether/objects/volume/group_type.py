"""A group type and its group specs, as the API shows it."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class GroupType(base.Record):
    id: str
    name: str
    description: str | None
    is_public: bool
    group_specs: dict
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        return cls(id=row.id, name=row.name, description=row.description,
                   is_public=row.is_public,
                   group_specs={s.key: s.value for s in row.group_specs},
                   created_at=row.created_at, updated_at=row.updated_at)

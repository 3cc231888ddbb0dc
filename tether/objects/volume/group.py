"""A generic volume group and a group snapshot, as the API shows them."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class Group(base.Record):
    id: str
    project_id: str
    user_id: str | None
    host: str | None
    availability_zone: str | None
    name: str | None
    description: str | None
    status: str
    group_type_id: str
    group_snapshot_id: str | None
    source_group_id: str | None
    # The ids of the volume types it takes, in the order it was given.
    volume_type_ids: tuple
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        return cls(id=row.id, project_id=row.project_id,
                   user_id=row.user_id, host=row.host,
                   availability_zone=row.availability_zone, name=row.name,
                   description=row.description, status=row.status,
                   group_type_id=row.group_type_id,
                   group_snapshot_id=row.group_snapshot_id,
                   source_group_id=row.source_group_id,
                   volume_type_ids=tuple(m.volume_type_id
                                         for m in row.volume_types),
                   created_at=row.created_at, updated_at=row.updated_at)

    @property
    def backend_host(self):
        """``host@backend`` without the ``#pool`` suffix."""
        return self.host.partition('#')[0] if self.host else None


@dataclasses.dataclass(frozen=True)
class GroupSnapshot(base.Record):
    id: str
    group_id: str
    project_id: str
    user_id: str | None
    name: str | None
    description: str | None
    status: str
    group_type_id: str
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        return cls(id=row.id, group_id=row.group_id,
                   project_id=row.project_id, user_id=row.user_id,
                   name=row.name, description=row.description,
                   status=row.status, group_type_id=row.group_type_id,
                   created_at=row.created_at, updated_at=row.updated_at)

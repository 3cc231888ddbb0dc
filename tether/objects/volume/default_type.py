"""A project's default volume type (/default-types)."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class DefaultType(base.Record):
    project_id: str
    volume_type_id: str
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

"""A volume transfer: an offer of a volume to whoever holds its key.
The key's salt and hash stay in the database layer: a record has
neither."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class Transfer(base.Record):
    id: str
    volume_id: str
    # The volume's project when it was offered.
    source_project_id: str
    name: str | None
    no_snapshots: bool
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

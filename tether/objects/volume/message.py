"""A user message: what failed in an operation after its 202, as Cinder
records it (resource, action and detail ids)."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class Message(base.Record):
    id: str
    project_id: str
    request_id: str | None
    resource_type: str | None
    resource_uuid: str | None
    event_id: str
    message_level: str
    action_id: str | None
    detail_id: str | None
    expires_at: datetime.datetime
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

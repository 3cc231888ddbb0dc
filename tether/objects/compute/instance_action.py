"""An instance action (one request's work on a server) and its events
(the steps the compute manager records)."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class InstanceAction(base.Record):
    id: int
    action: str
    instance_uuid: str
    request_id: str
    user_id: str | None
    project_id: str | None
    start_time: datetime.datetime
    finish_time: datetime.datetime | None
    message: str | None
    updated_at: datetime.datetime | None


@dataclasses.dataclass(frozen=True)
class InstanceActionEvent(base.Record):
    id: int
    action_id: int
    event: str
    start_time: datetime.datetime
    finish_time: datetime.datetime | None
    # None while running, then Success or Error.
    result: str | None
    traceback: str | None
    details: str | None
    host: str | None

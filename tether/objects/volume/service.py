"""A tether-volume service record: one backend (``host@backend``) and
the capacity it last reported."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class Service(base.ReportsIn, base.Record):
    JSON_FIELDS = {'capabilities': dict}

    id: int
    host: str
    binary: str
    topic: str
    availability_zone: str | None
    disabled: bool
    disabled_reason: str | None
    report_count: int
    heartbeat_at: datetime.datetime | None
    rpc_current_version: str | None
    object_current_version: str | None
    # Capacity and capabilities the backend last reported.
    capabilities: dict
    # Frozen by an administrator (os-services/freeze).
    frozen: bool
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

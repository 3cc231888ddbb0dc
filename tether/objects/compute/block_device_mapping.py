"""A volume of an instance (a block device mapping): from the attach
request until the volume is detached."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class BlockDeviceMapping(base.Record):
    JSON_FIELDS = {'connection_info': None}

    id: int
    uuid: str
    instance_uuid: str
    volume_id: str
    attachment_id: str | None
    device_name: str | None
    boot_index: int | None
    delete_on_termination: bool
    tag: str | None
    volume_size: int | None
    # attaching -> attached -> detaching (fields.BdmStatus).
    status: str
    # From the volume service; admin-only, never logged.
    connection_info: dict | None
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

"""A Manila share attached to an instance (``/servers/{id}/shares``),
from the attach request until its host revoked the share's access."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class ShareMapping(base.Record):
    id: int
    # The mapping's own ID (admin-only in the API).
    uuid: str
    instance_uuid: str
    share_id: str
    # fields.ShareMappingStatus.
    status: str
    # The name the guest mounts it by.
    tag: str
    # Where the share is (Manila's export location): admin-only in the
    # API, never logged, so kept out of the record's repr.
    export_location: str = dataclasses.field(repr=False)
    # fields.ShareProtocol.
    share_proto: str
    # Why the mapping is in error.
    reason: str | None
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

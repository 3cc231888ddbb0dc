"""A project's server group (``/os-server-groups``) and its members."""

import dataclasses
import datetime

from tether.objects import base


@dataclasses.dataclass(frozen=True)
class ServerGroup(base.Record):
    JSON_FIELDS = {'rules': dict}

    id: int
    uuid: str
    name: str
    project_id: str
    user_id: str
    # fields.ServerGroupPolicy
    policy: str
    # {"max_server_per_host": n} of an anti-affinity group, else {}.
    rules: dict
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    # The UUIDs of its live servers, oldest member first (not a column:
    # the query module fills it).
    members: tuple = ()

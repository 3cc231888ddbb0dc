"""The pure rules of attachments: the volume's status, the deletion guard."""

import pytest

from tether import context as t_context
from tether.objects.volume import attachment as attachment_obj
from tether.volume import attachment_state as state
from tether.volume.api import attachments
from tether.volume import compute_client


@pytest.mark.parametrize('statuses,expected', [
    ([], ('available', 'detached')),
    (['error_attaching', 'error_detaching'], ('available', 'detached')),
    (['reserved'], ('reserved', 'reserved')),
    (['reserved', 'attaching'], ('attaching', 'attaching')),
    (['reserved', 'detached'], ('detaching', 'attached')),
    (['attached', 'attaching', 'detached', 'reserved'],
     ('in-use', 'attached')),
    (['attached', 'error_attaching'], ('in-use', 'attached')),
])
def test_volume_status_follows_attachments(statuses, expected):
    assert state.volume_status_for(statuses) == expected


class Compute:
    """What the compute API would answer: a stand-in for these pure rules
    (the functional tests ask the real compute API)."""

    def __init__(self, uses):
        self.uses = uses
        self.asked = []

    def uses_attachment(self, context, instance_uuid, attachment_id,
                        volume_id):
        self.asked.append((instance_uuid, attachment_id))
        if self.uses is None:
            raise compute_client.ComputeUnavailable('connection refused')
        return self.uses


def _ctx(roles, service_roles=()):
    return t_context.RequestContext(user_id='u', project_id='p',
                                    roles=roles,
                                    service_roles=list(service_roles))


def _attachment(instance='i-1', connection_info=True):
    return attachment_obj.Attachment(
        id='2b3f2e4c-8d3a-4a57-9f2e-3b1d6c1f2a10',
        volume_id='6f0b8e2c-1a1d-4c1e-8d5e-0f3a2b1c4d5e',
        instance_uuid=instance, attach_status='attached',
        connection_info={'driver_volume_type': 'nfs'}
        if connection_info else None)


def test_in_use_attachment_needs_the_service_or_compute_says_no():
    user = _ctx(['member'])
    att = _attachment()
    assert attachments.deletion_allowed(user, att, Compute(uses=True)) \
        is False
    assert attachments.deletion_allowed(user, att, Compute(uses=False))
    service = _ctx(['member'], service_roles=['service'])
    compute = Compute(uses=True)
    assert attachments.deletion_allowed(service, att, compute)
    assert compute.asked == []


@pytest.mark.parametrize('instance,connection_info', [
    (None, True), ('i-1', False)])
def test_nothing_in_a_guest_uses_it(instance, connection_info):
    compute = Compute(uses=True)
    assert attachments.deletion_allowed(
        _ctx(['member']), _attachment(instance, connection_info), compute)
    assert compute.asked == []


def test_without_a_compute_service_the_delete_is_allowed():
    assert attachments.deletion_allowed(_ctx(['member']), _attachment())


def test_when_the_compute_api_cannot_answer_the_delete_is_refused():
    assert attachments.deletion_allowed(_ctx(['member']), _attachment(),
                                        Compute(uses=None)) is False

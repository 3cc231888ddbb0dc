"""The rescue and unrescue of a server in the API process: every check
made before anything changes, then the claim (task_state ``rescuing`` or
``unrescuing``) and the cast to the server's host
(tether.compute.ops.rescue does the work).

A server is rescued from ``active``, ``stopped`` or ``error`` and
unrescued from ``rescued`` (Nova's states). Its guest boots from a
rescue disk made of the rescue image: the one the request names
(``rescue_image_ref``), or the server's own image. A server that boots
from a volume is rescued only from microversion 2.87 (Nova's stable
device rescue), with a rescue image that has the properties
``hw_rescue_bus`` and ``hw_rescue_device``, on a host that reports
COMPUTE_RESCUE_BFV; below 2.87 it is refused (400), as in Nova.
"""

import os_traits
from oslo_log import log as logging

from tether.compute.api import block_device_mapping
from tether.compute.api import server_shares
from tether.compute.api import servers
from tether.compute.api import volume_attachments
from tether.compute import exception
from tether.compute import image_exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import version as compute_version
from tether.compute import volume_client
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether import images
from tether.objects import fields

LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState
Action = fields.InstanceAction

# The states a server is rescued from (Nova's).
RESCUABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.ERROR)
# What a rescue image of a volume-backed server must say of itself
# (Nova's stable device rescue).
STABLE_RESCUE_PROPERTIES = ('hw_rescue_bus', 'hw_rescue_device')


def _rescue_image(context, image_ref):
    """The rescue image, read with the caller's token: one a guest can
    boot (active, a bare disk in a format tether reads)."""
    image_id = image_ref.rstrip('/').rpartition('/')[2]
    try:
        image = images.for_caller(context).get(image_id)
    except (exception.ImageNotFound, exception.ImageNotAuthorized):
        raise image_exception.UnsupportedRescueImage(
            image=image_ref, reason='no such image')
    try:
        block_device_mapping.check_usable(image)
    except (image_exception.ImageNotActive,
            image_exception.ImageUnacceptable) as exc:
        raise image_exception.UnsupportedRescueImage(image=image_ref,
                                                     reason=str(exc))
    return image


def _check_volume_backed(context, instance, image, allow_bfv_rescue):
    """A server without a local root disk is rescued only with stable
    device rescue: 2.87 or later, the image's properties, the host's
    trait (Nova's three refusals, each a 400)."""
    if not allow_bfv_rescue:
        raise exception.InstanceNotRescuable(
            instance_id=instance.uuid,
            reason='Cannot rescue a volume-backed instance')
    # The image API shows an image's own properties beside its fields.
    missing = [name for name in STABLE_RESCUE_PROPERTIES
               if name not in image]
    if missing:
        raise exception.InstanceNotRescuable(
            instance_id=instance.uuid,
            reason='Cannot rescue a volume-backed instance with image %s: '
                   'it has no %s (stable device rescue)'
                   % (image['id'], ' or '.join(missing)))
    if os_traits.COMPUTE_RESCUE_BFV not in scheduler.host_traits(
            context, instance.host):
        raise exception.InstanceNotRescuable(
            instance_id=instance.uuid,
            reason='Host unable to rescue a volume-backed instance')


def _needs_rescue_host(context, instance, action):
    """The server's host and the RPC pin know rescue and unrescue
    (service version 9, RPC 1.7): 409 or 403 before anything changes."""
    servers.check_host(instance, action)
    servers.check_host_version(context, instance,
                               compute_version.RESCUE_SERVICE_VERSION,
                               action)
    compute_rpcapi.get().check_rescue_calls(action)


def rescue(context, instance, rescue_image_ref=None,
           allow_bfv_rescue=False):
    """Check, claim and cast the rescue of ``instance``; the ID of the
    rescue image. ``allow_bfv_rescue``: microversion 2.87 or later."""
    servers.check_unlocked(context, instance)
    servers.check_state(instance, Action.RESCUE, RESCUABLE)
    image_ref = rescue_image_ref or instance.image_ref
    if not image_ref:
        if not allow_bfv_rescue:
            raise exception.InstanceNotRescuable(
                instance_id=instance.uuid,
                reason='Cannot rescue a volume-backed instance')
        raise exception.InstanceNotRescuable(
            instance_id=instance.uuid,
            reason='it boots from a volume and has no image of its own: '
                   'name a rescue_image_ref')
    image = _rescue_image(context, image_ref)
    # Nova's check: every volume of the server is in-use (a volume the
    # volume service holds in another state would not follow the guest
    # into its rescue definition).
    volume_attachments.check_volumes_in_use(
        context, volume_client.for_user(context), instance)
    if not instance.is_image_backed:
        _check_volume_backed(context, instance, image, allow_bfv_rescue)
    # Unlike Nova, a server with shares is not rescued: its shares are
    # mounted on the host by a start, which a rescue is not. A share is
    # attached to a stopped server only (with its row locked), so none
    # can come between this read and the claim.
    if server_shares.list_shares(context, instance):
        raise exception.ForbiddenWithShare(instance_id=instance.uuid,
                                           action=Action.RESCUE)
    _needs_rescue_host(context, instance, Action.RESCUE)
    instance = db_instances.update(
        context, instance.uuid, {'task_state': TaskState.RESCUING},
        expected_vm_state=RESCUABLE, expected_task_state=None,
        action=Action.RESCUE, unlocked=not context.is_admin)
    db_actions.action_start(context, instance.uuid, Action.RESCUE)
    LOG.info('Rescuing server %s with image %s', instance.uuid,
             image['id'])
    compute_rpcapi.get().rescue_instance(context, instance, image['id'])
    return image['id']


def unrescue(context, instance):
    """Check, claim and cast the unrescue of a rescued server: its guest
    boots from its own disks again."""
    servers.check_host(instance, Action.UNRESCUE)
    servers.check_unlocked(context, instance)
    _needs_rescue_host(context, instance, Action.UNRESCUE)
    instance = db_instances.update(
        context, instance.uuid, {'task_state': TaskState.UNRESCUING},
        expected_vm_state=(VmState.RESCUED,), expected_task_state=None,
        action=Action.UNRESCUE, unlocked=not context.is_admin)
    db_actions.action_start(context, instance.uuid, Action.UNRESCUE)
    compute_rpcapi.get().unrescue_instance(context, instance)

"""What the compute manager does with a server's volumes: attach, detach,
extend (plain functions, as in servers.py)."""

from oslo_log import log as logging
from oslo_utils import excutils

from tether.compute import exception
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.objects import fields

LOG = logging.getLogger(__name__)
GiB = 1024 ** 3
EXTENDING = 'extending'
# Where the volume service puts the size a waiting extend asks for.
EXTEND_NEW_SIZE = 'extend_new_size'


def check_not_rescued(host, instance, action):
    """A rescue that the host ran between the API's check of the state
    and this operation (one operation per server at a time here): the
    guest's definition is the rescue's, and its own one, which an
    unrescue brings back, would not have the change (409, as the API's
    refusal of a rescued server)."""
    if host.driver.is_rescued(instance.uuid):
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance.uuid, attr='vm_state',
            state=fields.VmState.RESCUED)


def attach(context, host, instance, volume_id):
    """Connect a reserved attachment, hot-attach it, complete it.

    The API made the row (``attaching``) and the attachment (reserved,
    without a connector). Any failure removes what was done, the
    attachment included: nothing stays ``reserved`` or ``attaching``.
    Returns the device the guest sees.
    """
    client = volume_client.as_service(context)
    bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
    info = None
    attached = False
    try:
        check_not_rescued(host, instance, 'attach_volume')
        # The manager holds the instance's lock: the name stays free.
        device = host.driver.next_device_name(instance.uuid)
        attachment = client.update_attachment(
            bdm.attachment_id,
            dict(host.driver.get_volume_connector(), mountpoint=device))
        info = attachment['connection_info']
        db_bdms.update(context, bdm.id, {'connection_info': info})
        device = host.driver.attach_volume(instance.uuid, info, device)
        attached = True
        client.complete_attachment(bdm.attachment_id)
        db_bdms.update(context, bdm.id,
                       {'device_name': device,
                        'status': fields.BdmStatus.ATTACHED})
        return device
    except Exception as exc:
        with excutils.save_and_reraise_exception():
            LOG.error('Attach of volume %s to instance %s failed: %s',
                      volume_id, instance.uuid, exc)
            if attached:
                try:
                    host.driver.detach_volume(instance.uuid, info)
                except exception.TetherException:
                    LOG.exception('Could not detach volume %s again',
                                  volume_id)
            try:
                client.delete_attachment(bdm.attachment_id)
            except exception.TetherException:
                LOG.exception('Could not delete attachment %s',
                              bdm.attachment_id)
            db_bdms.destroy(context, bdm.id)


def detach(context, host, instance, volume_id):
    """Hot-detach, then delete the attachment and the row."""
    client = volume_client.as_service(context)
    bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
    info = bdm.connection_info
    try:
        check_not_rescued(host, instance, 'detach_volume')
        if info is not None:
            try:
                host.driver.detach_volume(instance.uuid, info)
            except (exception.VolumeAttachmentNotFound,
                    exception.InstanceNotFound):
                LOG.info('Volume %s was not on the guest of %s any more',
                         volume_id, instance.uuid)
        client.delete_attachment(bdm.attachment_id)
    except Exception:
        with excutils.save_and_reraise_exception():
            db_bdms.update(context, bdm.id,
                           {'status': fields.BdmStatus.ATTACHED},
                           expected_status=fields.BdmStatus.DETACHING)
    db_bdms.destroy(context, bdm.id)


def extend(context, host, instance, volume_id, new_size=None):
    """Make the guest see the volume at the size the volume service says.

    A volume ``extending`` waits for this host: its QEMU holds the file,
    so block_resize grows it to the extend's new size, and
    os-extend_volume_completion tells the volume service how it went; a
    failure is raised after that (the action event records it). The new
    size is ``new_size`` when the volume service sent it with the event
    (RPC 1.11), else ``extend_new_size`` of the volume's metadata, read
    with the volume. Any other volume has grown already: the guest is
    told its size. Returns the size in GiB the guest sees now, or None
    when the guest was not running (the size is recorded; QEMU reads it
    at the next start).
    """
    client = volume_client.as_service(context)
    if new_size is not None:
        LOG.info('Volume %s waits for this host to grow it to %sG (the '
                 'size sent with the event)', volume_id, new_size)
        return _extend_for_volume_service(
            context, host, instance, volume_id, client,
            lambda: _sent_size(volume_id, new_size))
    volume = client.get_volume(volume_id)
    if volume['status'] == EXTENDING:
        LOG.info('Volume %s waits for this host to grow it (the size of '
                 'its metadata: %s)', volume_id,
                 (volume.get('metadata') or {}).get(EXTEND_NEW_SIZE))
        return _extend_for_volume_service(
            context, host, instance, volume_id, client,
            lambda: _target_size(volume))
    bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
    info = bdm.connection_info
    if info is None:
        raise exception.VolumeAttachmentNotFound(volume_id=volume_id,
                                                 instance_id=instance.uuid)
    size = int(volume['size'])
    db_bdms.update(context, bdm.id, {'volume_size': size})
    resized = host.driver.extend_volume(instance.uuid, info, size * GiB)
    if not resized:
        LOG.info('Instance %s is not running: volume %s will be seen at '
                 '%d GiB when it starts', instance.uuid, volume_id, size)
        return None
    return size


def _target_size(volume):
    """The size a waiting extend asks for; ExtendFailed if unusable."""
    text = (volume.get('metadata') or {}).get(EXTEND_NEW_SIZE)
    try:
        size = int(text)
    except (TypeError, ValueError):
        raise exception.ExtendFailed(
            volume_id=volume['id'],
            reason='its metadata has no usable %s (%r)'
                   % (EXTEND_NEW_SIZE, text))
    if size <= int(volume['size']):
        raise exception.ExtendFailed(
            volume_id=volume['id'],
            reason='%s %sG is not larger than its size %sG'
                   % (EXTEND_NEW_SIZE, size, volume['size']))
    return size


def _sent_size(volume_id, new_size):
    """The size the volume service sent with the event; ExtendFailed if
    it is not a positive whole number of GiB. The guest refuses to
    shrink (the driver checks the disk's size)."""
    if isinstance(new_size, bool) or not isinstance(new_size, int) \
            or new_size < 1:
        raise exception.ExtendFailed(
            volume_id=volume_id,
            reason='the size sent with the event is not usable (%r)'
                   % (new_size,))
    return new_size


def _extend_for_volume_service(context, host, instance, volume_id, client,
                               target):
    """Grow the guest's disk to ``target()`` GiB and answer the volume
    service: error true on any failure (raised after the answer)."""
    try:
        bdm = db_bdms.get_by_volume(context, instance.uuid, volume_id)
        info = bdm.connection_info
        if info is None:
            raise exception.VolumeAttachmentNotFound(
                volume_id=volume_id, instance_id=instance.uuid)
        size = target()
        if not host.driver.extend_volume(instance.uuid, info, size * GiB):
            raise exception.ExtendFailed(
                volume_id=volume_id,
                reason='the guest of server %s is not running, and only '
                       'its QEMU can grow the file' % instance.uuid)
    except Exception as exc:
        with excutils.save_and_reraise_exception():
            LOG.error('Could not extend volume %s of server %s for the '
                      'volume service: %s', volume_id, instance.uuid, exc)
            _complete(client, volume_id, error=True)
    # The volume service first: its volume waits for this answer.
    _complete(client, volume_id, error=False)
    db_bdms.update(context, bdm.id, {'volume_size': size})
    LOG.info('Extended volume %s of server %s to %sG', volume_id,
             instance.uuid, size)
    return size


def _complete(client, volume_id, error):
    try:
        client.complete_extend(volume_id, error)
    except exception.TetherException:
        # The volume service settles the extend by itself when its timeout
        # passes, from the size of the file.
        LOG.exception('Could not send os-extend_volume_completion (error=%s) '
                      'for volume %s', error, volume_id)

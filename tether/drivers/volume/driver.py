"""The interface between the volume manager and a storage backend."""

GiB = 1024 ** 3


class VolumeDriver:
    """What the volume manager asks of a backend.

    A driver gets the backend's configuration group and knows nothing of the
    database, the objects' persistence or the API.
    """

    def __init__(self, configuration, host):
        self.configuration = configuration
        self.host = host
        self.initialized = False

    def do_setup(self):
        """Prepare the backend (mount shares ...); raise if unusable."""

    def get_volume_stats(self):
        """Capacity and capabilities: a dict with a ``pools`` list."""
        raise NotImplementedError()

    def create_volume(self, volume):
        """Create storage of ``volume.size`` GiB; return a model update."""
        raise NotImplementedError()

    def delete_volume(self, volume):
        """Remove the storage; succeed if it is already gone."""
        raise NotImplementedError()

    def extend_volume(self, volume, new_size):
        """Grow the storage to ``new_size`` GiB.

        Raise ExtendNeedsHypervisor when a hypervisor that uses the volume
        holds it so that only the hypervisor can grow it (a file QEMU has
        locked): the manager then asks the compute service to do it and
        waits for its os-extend_volume_completion.
        """
        raise NotImplementedError()

    def copy_image_to_volume(self, volume, image_path, image_format,
                             sparse=True):
        """Write the image file ``image_path`` (of ``image_format``, a
        format qemu_img.inspect accepted and sized to fit) into the
        volume's storage, which keeps its size. ``sparse`` false: none
        of the volume's old data is left, neither where the image has
        zeros nor past its end (the image's zeros are written too)."""
        raise NotImplementedError()

    def can_write_raw_image(self, volume):
        """Whether :meth:`write_raw_image` writes into this volume (its
        storage holds the guest's bytes as they are)."""
        return False

    def write_raw_image(self, volume, chunks, sparse=True):
        """Write the data of a raw image, as it comes (``chunks``, byte
        strings no longer in all than the volume), at the start of the
        volume, which keeps its size. ``sparse``: runs of zeros are
        skipped, not written; false: none of the volume's old data is
        left, neither in the image's zeros nor past its end."""
        raise NotImplementedError()

    def copy_volume_to_image(self, volume, image_path, image_format,
                             force_share=False):
        """Write the volume's data to the new file ``image_path`` in
        ``image_format`` (raw or qcow2). ``force_share``: the volume is
        attached, and a hypervisor may hold it (a forced upload)."""
        raise NotImplementedError()

    def get_volume_size(self, volume):
        """The size in bytes the storage really has (for reconciliation)."""
        raise NotImplementedError()

    def create_snapshot(self, volume, snapshot):
        """Keep the data ``volume`` (not attached) has now as
        ``snapshot``. Run again for the same snapshot (after an
        interruption), it leaves the same result."""
        raise NotImplementedError()

    def create_group_snapshot(self, pairs):
        """Keep the data of several volumes (``pairs``: (volume,
        snapshot), none attached) in one moment, as far as the backend
        can. By default one after the other."""
        for volume, snapshot in pairs:
            self.create_snapshot(volume, snapshot)

    def delete_snapshot(self, volume, snapshot):
        """Forget ``snapshot`` of ``volume`` (not attached), keeping the
        volume's data and its other snapshots' data; succeed if it is
        already gone."""
        raise NotImplementedError()

    # Snapshots of attached volumes: the hypervisor that holds the
    # volume changes its files (tether.volume.ops.snapshots asks it, and
    # holds volume_lock(volume) around each prepare and its finish).

    def volume_lock(self, volume):
        """A context manager held around what reads or changes the
        volume's snapshots."""
        raise NotImplementedError()

    def prepare_assisted_snapshot(self, volume, snapshot):
        """Make what the hypervisor is to switch the attached volume to
        for ``snapshot``; return Nova's ``create_info`` (``type``,
        ``new_file``, ``snapshot_id``), or None if it is taken."""
        raise NotImplementedError()

    def finish_assisted_snapshot(self, volume, snapshot, create_info):
        """The hypervisor switched: record the snapshot as taken."""
        raise NotImplementedError()

    def abandon_assisted_snapshot(self, volume, snapshot, create_info):
        """The hypervisor did not switch: undo the prepare."""
        raise NotImplementedError()

    def prepare_assisted_snapshot_delete(self, volume, snapshot):
        """``(plan, merged)``: the plan's ``delete_info`` (Nova's) says
        what the hypervisor is to merge; ``merged``: it did already.
        None if the snapshot is gone."""
        raise NotImplementedError()

    def finish_assisted_snapshot_delete(self, volume, snapshot, plan):
        """The hypervisor merged: forget the snapshot, remove its file."""
        raise NotImplementedError()

    def revert_to_snapshot(self, volume, snapshot):
        """Make the detached ``volume`` read again as it did when
        ``snapshot``, its latest, was taken."""
        raise NotImplementedError()

    def create_volume_from_snapshot(self, volume, snapshot, source):
        """Write the data of ``snapshot`` of the volume ``source`` into
        ``volume`` (made by create_volume, at least as large)."""
        raise NotImplementedError()

    def create_cloned_volume(self, volume, source):
        """Write the data of the detached volume ``source`` into
        ``volume`` (made by create_volume, at least as large)."""
        raise NotImplementedError()

    def backup_device(self, volume, snapshot=None):
        """Where a backup service reads the data of ``volume`` (detached,
        nothing writes it), or of its ``snapshot``, and writes the data
        of a restore into the volume: the connection info of
        :meth:`initialize_connection`, naming the file to read or write
        and its format."""
        raise NotImplementedError()

    def initialize_connection(self, volume, connector):
        """Let the consumer described by ``connector`` reach the volume.

        Returns the connection info: ``{'driver_volume_type': ..., 'data':
        {...}}``. ``connector['mode']`` is the access mode, ``rw`` or
        ``ro``. Called again for a connector it already served, it returns
        the same info.
        """
        raise NotImplementedError()

    def terminate_connection(self, volume, connector):
        """Undo :meth:`initialize_connection` for that connector.

        The manager calls it only when no other attachment of the volume
        uses the same host's connection. It succeeds if there is nothing
        left to undo.
        """
        raise NotImplementedError()

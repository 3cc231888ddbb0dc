"""What a volume takes from an image: whether the image fits it (checked
in the API before anything is created, as Cinder checks), and the image
metadata the volume keeps (``volume_image_metadata``); and what an image
made of a volume takes from that metadata."""

from tether import images
from tether.volume import exception

GiB = 1024 ** 3

# Glance's own attributes of an image (the base properties of its image
# schema). Every other key of an image is a property (os_distro, hw_*,
# those a user set) and the volume keeps it, as Cinder keeps it.
BASE_PROPERTIES = frozenset((
    'id', 'name', 'status', 'visibility', 'protected', 'os_hidden',
    'checksum', 'os_hash_algo', 'os_hash_value', 'owner', 'size',
    'virtual_size', 'min_ram', 'min_disk', 'container_format',
    'disk_format', 'created_at', 'updated_at', 'tags', 'direct_url',
    'locations', 'self', 'file', 'schema', 'stores'))
# The attributes the volume keeps besides the id and the name: Cinder's
# and the virtual size.
KEPT_ATTRIBUTES = ('checksum', 'container_format', 'disk_format',
                   'min_disk', 'min_ram', 'size', 'virtual_size')
# The container formats whose data is the disk itself.
CONTAINER_FORMATS = ('bare',)
# The disk formats of an image made of a volume: what qemu-img writes and
# the image API takes.
UPLOAD_DISK_FORMATS = ('raw', 'qcow2')

# Keys of a volume's image metadata that an image made of the volume does
# not take as properties: Cinder's ``glance_core_properties`` (the
# attributes of the image the volume came from), and the virtual size
# tether keeps too. The new image has attributes of its own.
NOT_UPLOADED = frozenset(('checksum', 'container_format', 'disk_format',
                          'image_id', 'image_name', 'min_disk', 'min_ram',
                          'name', 'size', 'virtual_size'))
# Namespaces of properties never uploaded (Cinder's
# GLANCE_RESERVED_NAMESPACES): the image API keeps os_glance* for itself,
# and a signature of the old image's data is no signature of the new.
RESERVED_NAMESPACES = ('os_glance', 'img_signature', 'signature_verified')


def gib(size_bytes):
    """Bytes to whole GiB, rounded up."""
    return -(-int(size_bytes) // GiB)


def maps_volumes(image):
    """Whether the image is one the compute service made of a
    volume-backed server (Nova's ``bdm_v2`` and ``block_device_mapping``
    properties): properties only, no data."""
    return (str(image.get('bdm_v2', '')).lower() in ('true', '1', 'yes')
            or bool(image.get('block_device_mapping')))


def check_fits(image, size):
    """ImageUnacceptable unless a volume of ``size`` GiB can be made from
    ``image`` (a dict of the image API)."""
    def refuse(reason):
        raise exception.ImageUnacceptable(image_id=image['id'],
                                          reason=reason)
    if image.get('status') != 'active':
        refuse('it is %s, not active' % image.get('status'))
    if maps_volumes(image):
        refuse('it is a snapshot of a volume-backed server: it has no data '
               'of its own and maps volume snapshots '
               '(block_device_mapping); make the volume of one of them')
    if image.get('container_format') not in CONTAINER_FORMATS:
        refuse('its container format is %s; volumes are made of images '
               'in container format %s'
               % (image.get('container_format'),
                  ', '.join(CONTAINER_FORMATS)))
    if image.get('disk_format') not in images.SOURCE_FORMATS:
        refuse('its disk format is %s; volumes are made of images in disk '
               'format %s' % (image.get('disk_format'),
                              ', '.join(images.SOURCE_FORMATS)))
    if gib(image.get('size') or 0) > size:
        refuse('its size, %sGB, is larger than the volume size, %sGB'
               % (gib(image['size']), size))
    if (image.get('min_disk') or 0) > size:
        refuse('the volume size, %sGB, is smaller than the image minDisk '
               'size, %sGB' % (size, image['min_disk']))
    if gib(image.get('virtual_size') or 0) > size:
        refuse('its virtual size, %sGB, does not fit in a volume of %sGB'
               % (gib(image['virtual_size']), size))


def metadata(image):
    """The volume_image_metadata of a volume made from ``image``: its id
    and name, the kept attributes and its properties, all strings."""
    kept = {key: value for key, value in image.items()
            if key not in BASE_PROPERTIES}
    kept.update((key, image[key]) for key in KEPT_ATTRIBUTES
                if image.get(key) is not None)
    kept['image_id'] = image['id']
    if image.get('name'):
        kept['image_name'] = image['name']
    # tether checks the data against the image API's hash, not a
    # signature (img_signature*).
    kept['signature_verified'] = False
    return {key: str(value) for key, value in kept.items()
            if value is not None}


def upload_properties(image_metadata):
    """The properties of an image made of a volume with this
    ``volume_image_metadata``: its image's properties (os_distro, hw_*,
    those a user set), as Cinder copies them. Glance's own attributes
    are never properties (the image API refuses them as such)."""
    return {key: value for key, value in image_metadata.items()
            if key not in NOT_UPLOADED and key not in BASE_PROPERTIES and
            not key.startswith(RESERVED_NAMESPACES)}

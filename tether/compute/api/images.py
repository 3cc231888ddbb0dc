"""The image API's images through the compute API (``/images``, a proxy
Nova serves to 2.35, and ``/images/{id}/metadata``, to 2.38), in the API
process: every call is the image API's, made with the caller's token,
so the image API decides what the caller sees and changes (its 404 and
403 are the proxy's).

An image's ``metadata`` in Nova's words is what the image API calls its
properties: every key of the image that is not one of the image API's
own attributes (:data:`ATTRIBUTES`)."""

from oslo_serialization import jsonutils
from oslo_utils import uuidutils

from tether.compute.api import server_metadata
from tether.compute import exception
from tether.compute import image_exception
from tether.compute import quota_exception
from tether import images

# The attributes of the image API's image schema (Glance's base
# properties); every other key of an image is one of its properties.
ATTRIBUTES = frozenset((
    'id', 'name', 'status', 'visibility', 'protected', 'os_hidden',
    'checksum', 'os_hash_algo', 'os_hash_value', 'owner', 'size',
    'virtual_size', 'container_format', 'disk_format', 'created_at',
    'updated_at', 'tags', 'direct_url', 'min_ram', 'min_disk', 'self',
    'file', 'stores', 'schema', 'locations'))
# Properties Nova stores as JSON text and shows decoded.
_JSON_PROPERTIES = ('block_device_mapping', 'mappings')

# Nova's list filters -> the image API's query parameters (the values of
# name and status as an equality, so that a ":" in them is no operator).
FILTERS = {'name': 'name', 'status': 'status', 'server': 'instance_uuid',
           'type': 'image_type', 'minRam': 'min_ram', 'minDisk': 'min_disk'}
PROPERTY_FILTER = 'property-'


def properties(image):
    """The image's properties (Nova's ``metadata`` of an image)."""
    out = {}
    for key, value in image.items():
        if key in ATTRIBUTES:
            continue
        if key in _JSON_PROPERTIES and isinstance(value, str):
            try:
                value = jsonutils.loads(value)
            except ValueError:
                pass
        out[key] = value
    return out


def image_filters(params, changes_since=None):
    """The image API's query of a list's (validated) query ``params``,
    as Nova translates it: ``status`` lowered, ``server`` an id or a URL
    ending with one, ``property-<key>`` a property's value
    (``changes_since``, the datetime of ``changes-since``, is the image
    API's ``updated_at=gte:``)."""
    out = {}
    for key, value in params.items():
        if key in FILTERS:
            out[FILTERS[key]] = value
        elif key.startswith(PROPERTY_FILTER):
            name = key[len(PROPERTY_FILTER):]
            if name in ATTRIBUTES or not name:
                raise exception.InvalidInput(
                    reason='%s names no image property' % key)
            out[name] = value
    if 'status' in out:
        out['status'] = out['status'].lower()
    for key in ('name', 'status'):
        if key in out:
            out[key] = 'eq:' + out[key]
    if 'instance_uuid' in out:
        out['instance_uuid'] = out['instance_uuid'].rstrip('/').rpartition(
            '/')[2]
    if changes_since is not None:
        out['updated_at'] = 'gte:' + changes_since.strftime(
            '%Y-%m-%dT%H:%M:%SZ')
    return out


def list_images(context, filters, limit=None, marker=None):
    """The first ``limit`` images the caller sees that match ``filters``
    (the image API's query), after ``marker``."""
    return images.for_caller(context).page(limit, marker=marker, **filters)


def root_url(context):
    """The image API's URL (of its images: ``<it>/images/<id>``)."""
    return images.for_caller(context).root()


def get(context, image_id):
    return images.for_caller(context).get(image_id)


def delete(context, image_id):
    if not uuidutils.is_uuid_like(image_id):
        raise exception.ImageNotFound(image_id=image_id)
    images.for_caller(context).delete(image_id)


# Metadata --------------------------------------------------------------------

def _check_keys(metadata):
    for key in metadata:
        if key in ATTRIBUTES:
            raise image_exception.ImageAttributeNotMetadata(key=key)


def _check_quota(context, metadata):
    server_metadata.check_quota(
        context, metadata,
        error=quota_exception.ImageMetadataLimitExceeded)


def update(context, image_id, metadata, replace=False):
    """Merge ``metadata`` into the image's properties (``replace``: they
    become its properties, the others removed), within the
    ``metadata_items`` quota; the image's properties after.

    One request to the image API makes the change (the keys set, and a
    replace's removals of the keys the image had when it was read; a key
    another request removed meanwhile fails it: it is read again and
    tried again)."""
    _check_keys(metadata)
    client = images.for_caller(context)
    for _attempt in range(3):
        current = properties(client.get(image_id))
        if replace:
            _check_quota(context, metadata)
            remove = [key for key in current if key not in metadata]
        else:
            _check_quota(context, dict(current, **metadata))
            remove = []
        try:
            return properties(client.update_properties(
                image_id, metadata, remove=remove,
                absent=image_exception.ImageMetadataChanged(
                    image_id=image_id)))
        except image_exception.ImageMetadataChanged:
            continue
    raise image_exception.ImageMetadataChanged(image_id=image_id)


def delete_key(context, image_id, key):
    """Remove one property; ImageMetadataItemNotFound if the image has
    none of that key (or another request removed it first)."""
    client = images.for_caller(context)
    missing = image_exception.ImageMetadataItemNotFound(image_id=image_id,
                                                        key=key)
    if key not in properties(client.get(image_id)):
        raise missing
    client.update_properties(image_id, remove=[key], absent=missing)

"""Serialize the answers of the volume actions that have one."""


def upload_image(volume, image):
    """The body of os-volume_upload_image, as Cinder shapes it: the volume
    as claimed, and the image as the image API created it."""
    body = {
        'id': volume.id,
        'updated_at': volume.updated_at,
        'status': volume.status,
        'display_description': volume.description,
        'size': volume.size,
        # Cinder puts its volume type object here (clients read "name").
        'volume_type': {'id': volume.volume_type_id,
                        'name': volume.volume_type_name},
        'image_id': image['id'],
        'container_format': image.get('container_format'),
        'disk_format': image.get('disk_format'),
        'image_name': image.get('name'),
    }
    for key in ('protected', 'visibility'):
        if key in image:
            body[key] = image[key]
    return body

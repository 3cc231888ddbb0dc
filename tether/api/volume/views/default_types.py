"""Views of projects' default volume types, as Cinder shows them."""


def show(default):
    return {'project_id': default.project_id,
            'volume_type_id': default.volume_type_id}

"""QoS specs as JSON (Cinder's shape: the specs, and links beside them)."""

_COLLECTION = 'qos-specs'


def _links(req, qos_specs_id):
    base = req.application_url
    project = req.urlvars.get('project_id')
    prefix = '%s/v3/%s' % (base, project) if project else '%s/v3' % base
    path = '%s/%s' % (_COLLECTION, qos_specs_id)
    return [{'rel': 'self', 'href': '%s/%s' % (prefix, path)},
            {'rel': 'bookmark',
             'href': '%s/%s' % (prefix.replace('/v3', '', 1), path)}]


def qos_specs(qos):
    return {'id': qos.id, 'name': qos.name, 'consumer': qos.consumer,
            'specs': dict(qos.specs)}


def show(req, qos):
    return {'qos_specs': qos_specs(qos), 'links': _links(req, qos.id)}


def associations(rows):
    return {'qos_associations': [
        {'association_type': 'volume_type', 'id': type_id, 'name': name}
        for type_id, name in rows]}

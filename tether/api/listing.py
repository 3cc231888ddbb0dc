"""The ``next`` link of a page of a compute API collection."""

from urllib import parse


def next_link(req, page_size, count, marker):
    """``[{'rel': 'next', 'href': ...}]`` when the page is full, else None.

    The link repeats the query of the request with ``marker`` replaced, as
    Nova builds it; a full last page gets a link to an empty one.
    """
    if not page_size or count < page_size:
        return None
    params = [(k, v) for k, v in req.GET.items() if k != 'marker']
    params.append(('marker', marker))
    return [{'rel': 'next',
             'href': '%s?%s' % (req.path_url, parse.urlencode(params))}]

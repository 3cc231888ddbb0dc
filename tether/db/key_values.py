"""Rows of key/value pairs that belong to one row of another table
(metadata, extra specs): one way to set them."""

import sqlalchemy as sa


def write(session, model, owner_column, owner_id, values,
          delete_others=False):
    """Set ``values`` ({key: value}) among the rows of ``model`` whose
    ``owner_column`` is ``owner_id``: a key it has takes the new value, a
    new key gets a row, and with ``delete_others`` the rows of the other
    keys go. Returns {key: value} of every row the owner has then."""
    column = getattr(model, owner_column)
    existing = {row.key: row for row in session.scalars(
        sa.select(model).where(column == owner_id))}
    for key, value in values.items():
        if key in existing:
            existing[key].value = value
        else:
            existing[key] = model(key=key, value=value,
                                  **{owner_column: owner_id})
            session.add(existing[key])
    if delete_others:
        for key in [k for k in existing if k not in values]:
            session.delete(existing.pop(key))
    session.flush()
    return {key: row.value for key, row in existing.items()}

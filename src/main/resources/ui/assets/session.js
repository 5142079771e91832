// What the signed-in user may do. With authorization off everyone may do everything; with it on,
// the session names the namespaces ("*" for all) of each permission, as the rules grant them.

/** Whether the session grants the permission ('admin', 'read', 'write', 'reverseLookup'). */
export function can(session, permission, namespace) {
  const permissions = session?.permissions;
  if (!permissions) {
    return false;
  }
  if (permission === 'admin') {
    return permissions.admin === true;
  }
  const namespaces = permissions[permission] ?? [];
  return namespaces.includes('*') || (namespace !== undefined && namespaces.includes(namespace));
}

/** Whether the permission is granted for at least one namespace. */
export function canAny(session, permission) {
  return (session?.permissions?.[permission] ?? []).length > 0;
}

/** Why a control is disabled, for its hint; null when it is not. */
export function denial(session, permission, namespace) {
  if (can(session, permission, namespace)) {
    return null;
  }
  const what = {
    admin: 'Only administrators may do this.',
    read: 'You may not read this namespace.',
    write: 'You may not create pseudonyms in this namespace.',
    reverseLookup: 'You may not look up original values in this namespace.',
  };
  return what[permission] ?? 'You may not do this.';
}

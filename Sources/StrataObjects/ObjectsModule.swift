// The object layer grows here (schema, clusters, Realm API).

SELECT pg_notify('registry_changes', 'feed')

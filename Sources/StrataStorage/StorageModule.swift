// storage

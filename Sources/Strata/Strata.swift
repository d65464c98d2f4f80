// The module Strata users import: the object database and its query language.
@_exported import StrataObjects
@_exported import StrataQuery

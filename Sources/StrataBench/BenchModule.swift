import Strata
import CSQLite

import Strata
print("strata: under construction")

import StrataStorage
print("writer")

import LodestoneCore
print("lodestone")

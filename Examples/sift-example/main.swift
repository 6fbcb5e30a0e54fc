// The sample app's scripted session lives here (issue 7).
print("sift-example: not yet implemented")

-- wrk script: GET a path with the app token (first argument).
function init(args)
  token = args[1]
end

function request()
  return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. token })
end
